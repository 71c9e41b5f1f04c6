import Foundation
import ZeroPiiCLI

// `zeropii`: tokenize values and CSV files, run the mock server, or take the demo tour.
StandardDescriptors.occupyClosed()
signal(SIGPIPE, SIG_IGN)
let status = await CommandLineInterface.runWithProcessArguments()
exit(status)

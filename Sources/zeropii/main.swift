import Foundation
import ZeroPiiMockServer

/// `zeropii`: the ZeroPii command-line tool.
let arguments = Array(CommandLine.arguments.dropFirst())
let exitCode: Int32
switch arguments.first {
case "serve":
    exitCode = ServeCommand.run(Array(arguments.dropFirst()))
case "--help", "-h", "help", nil:
    print(Usage.main)
    exitCode = arguments.isEmpty ? 2 : 0
default:
    Usage.fail("unknown command '\(arguments[0])'", hint: "run 'zeropii --help' for the list of commands")
    exitCode = 2
}
exit(exitCode)

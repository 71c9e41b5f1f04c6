import CleverTapZeroPiiSDK
import SwiftUI

/// One field, three ways to tokenize it, and the result.
struct ContentView: View {
    @StateObject private var model = ObservedModel()

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("ZeroPII Sample").font(.title)
            Text("API: \(SampleSettings.apiURL())").font(.footnote)
            TextField("Value (comma-separated for a batch)", text: $model.input)
                .textFieldStyle(.roundedBorder)
            HStack {
                Button("Tokenize") { model.tokenize() }
                Button("Async") { Task { await model.tokenizeAsync() } }
                Button("Batch") { model.tokenizeBatch() }
            }
            Text(model.status).font(.body.monospaced())
            Spacer()
        }
        .padding()
    }
}

/// SampleViewModel for SwiftUI: republishes its status (the view model itself stays
/// plain Swift, so it also compiles on Linux).
@MainActor
final class ObservedModel: ObservableObject {
    private let model = SampleViewModel()
    @Published var input: String
    @Published private(set) var status: String

    init() {
        input = model.input
        status = model.status
        model.onStatusChange = { [weak self] status in self?.status = status }
    }

    func tokenize() {
        model.input = input
        model.tokenize()
    }

    func tokenizeAsync() async {
        model.input = input
        await model.tokenizeAsync()
    }

    func tokenizeBatch() {
        model.input = input
        model.tokenizeBatch()
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stands for the app's own auth system in these snippets: a backend endpoint that
/// returns a short-lived token for the signed-in user as
/// `{"access_token": "...", "expires_in": 3600}`. The app never holds the tokenization
/// service's client secret; its backend does.
final class MyAuthService: Sendable {
    static let shared = MyAuthService(endpoint: URL(string: "https://your-backend.example.com/zeropii/token")!)

    let endpoint: URL

    init(endpoint: URL) {
        self.endpoint = endpoint
    }

    struct NoToken: Error {}

    /// Calls `callback` once with the token and its lifetime in seconds, or with an error.
    func getToken(callback: @escaping (String?, Int, Error?) -> Void) {
        // The callback carries the reference provider's completion, declared there without
        // `@Sendable` (MigratingToSwift6 shows the one-line change that makes this
        // unnecessary); URLSession calls it once, from its delegate queue.
        nonisolated(unsafe) let callback = callback
        URLSession.shared.dataTask(with: endpoint) { data, response, error in
            guard error == nil, (response as? HTTPURLResponse)?.statusCode == 200, let data,
                let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                let token = json["access_token"] as? String
            else {
                callback(nil, 0, error ?? NoToken())
                return
            }
            callback(token, json["expires_in"] as? Int ?? 0, nil)
        }.resume()
    }
}

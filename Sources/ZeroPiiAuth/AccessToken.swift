/// A token the cache handed out, with the generation that tells a stale token from
/// the current one after a 401. The description never shows the token.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible {
    /// The bearer token, exactly as the provider returned it.
    public let value: String
    /// Increases with every fetch from the provider.
    public let generation: Int

    /// A token with its fetch generation.
    public init(value: String, generation: Int) {
        self.value = value
        self.generation = generation
    }

    public var description: String { "AccessToken(generation: \(generation))" }
}

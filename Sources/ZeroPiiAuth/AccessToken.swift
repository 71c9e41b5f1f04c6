/// A token the cache handed out, with the generation that tells a stale token from
/// the current one after a 401. The description never shows the token.
package struct AccessToken: Sendable, Hashable, CustomStringConvertible {
    /// The bearer token, exactly as the provider returned it.
    package let value: String
    /// Increases with every fetch from the provider.
    package let generation: Int

    /// A token with its fetch generation.
    package init(value: String, generation: Int) {
        self.value = value
        self.generation = generation
    }

    package var description: String { "AccessToken(generation: \(generation))" }
}

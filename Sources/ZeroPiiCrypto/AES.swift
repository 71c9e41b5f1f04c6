/// The Advanced Encryption Standard, as a namespace for its modes (``AES/GCM``).
package enum AES {}

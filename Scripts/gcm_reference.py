#!/usr/bin/env python3
"""Reference AES-GCM cases from OpenSSL, for the differential test of ZeroPiiCrypto.

Usage: gcm_reference.py SEED COUNT [MAX_TEXT [MAX_AAD]]

Prints COUNT lines, each "key nonce aad plaintext ciphertext tag" in hex ("-" for an
empty field), with keys of 128, 192 and 256 bits, mostly 12-byte nonces and some of
other lengths, associated data of 0 to MAX_AAD bytes (100 unless given) and plaintexts
of 0 to MAX_TEXT bytes (4100 unless given).
The same SEED always gives the same cases, so a failure can be replayed.
"""
import random
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    max_text = int(sys.argv[3]) if len(sys.argv) > 3 else 4100
    max_aad = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    rng = random.Random(seed)
    out = sys.stdout
    for _ in range(count):
        key = rng.randbytes(rng.choice((16, 24, 32)))
        nonce_length = 12 if rng.random() < 0.85 else rng.randint(8, 64)
        nonce = rng.randbytes(nonce_length)
        aad = rng.randbytes(rng.randint(0, max_aad))
        plaintext = rng.randbytes(rng.randint(0, max_text))
        encryptor = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
        encryptor.authenticate_additional_data(aad)
        ciphertext = encryptor.update(plaintext) + encryptor.finalize()
        fields = (key, nonce, aad, plaintext, ciphertext, encryptor.tag)
        out.write(" ".join(field.hex() or "-" for field in fields) + "\n")


if __name__ == "__main__":
    main()

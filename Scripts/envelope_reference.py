#!/usr/bin/env python3
"""The v1 envelope's per-request work through OpenSSL (Python's `cryptography`), as the
reference side of `zeropii-benchmarks envelope`.

Usage: envelope_reference.py SECONDS SIZE...

For each SIZE, repeats for SECONDS of this process's CPU time what one request costs one
side of the protocol (Docs/Protocol.md, the v1 envelope): a fresh 32-byte salt and 12-byte
IV, K_req and K_resp derived from the access token with HKDF-SHA256, the payload sealed
under K_req with its associated data, and opened again. Prints one line per size,
"SIZE MICROSECONDS", the CPU time per round trip. The figure includes the interpreter's
own cost per call, which dominates at small sizes; at 50 KB it is mostly OpenSSL's.
"""
import os
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

TOKEN = b"eyJhbGciOiJIUzI1NiJ9.an-access-token-of-a-typical-length.c2lnbmF0dXJl"
REQUEST_ID = "0b6f8f5e-3c1d-4e7a-9d2b-5a4c3b2a1f00"
AAD = f"zeropii/v1|request|tokenize|{REQUEST_ID}|1700000000".encode()


def round_trip(payload: bytes) -> bytes:
    salt = os.urandom(32)
    request_key = HKDF(hashes.SHA256(), 32, salt, b"zeropii/v1 request").derive(TOKEN)
    HKDF(hashes.SHA256(), 32, salt, b"zeropii/v1 response").derive(TOKEN)
    iv = os.urandom(12)
    cipher = AESGCM(request_key)
    return cipher.decrypt(iv, cipher.encrypt(iv, payload, AAD), AAD)


def main() -> None:
    seconds = float(sys.argv[1])
    for size in map(int, sys.argv[2:]):
        payload = bytes((i * 31 + 7) & 0xFF for i in range(size))
        assert round_trip(payload) == payload
        runs = 0
        start = time.process_time()
        while True:
            for _ in range(16):
                round_trip(payload)
            runs += 16
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        print(f"{size} {elapsed / runs * 1e6:.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""An HTTPS server on 127.0.0.1 for the curl transport's TLS tests.

Makes a certificate authority and a server certificate for 127.0.0.1 and localhost with
the `cryptography` package (OpenSSL underneath), serves HTTPS with Python's `ssl` module
(also OpenSSL) on a free port, and prints one JSON line: the port, the CA's PEM file,
and the server key's pin in curl's form (sha256// and the Base64 of the SHA-256 of its
DER SubjectPublicKeyInfo). Every request is answered 200 with `tls-ok`, or, with
--forward PORT, passed on to http://127.0.0.1:PORT and its answer passed back (for the
`zeropii` tool against the mock server behind TLS). It runs until its standard input
closes, so it ends with the test process that started it.

Usage: tls-test-server.py DIRECTORY [--forward PORT]
"""

import base64
import datetime
import hashlib
import http.client
import http.server
import ipaddress
import json
import os
import ssl
import sys
import threading

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def certificate(subject, issuer, public_key, signing_key, is_ca, names=()):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
    )
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(list(names)), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = b"tls-ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "connection")}
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.forward_port, timeout=60)
        upstream.request(self.command, self.path, body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    def handle_request(self):
        if self.server.forward_port:
            self.forward()
        else:
            self.answer()

    do_GET = handle_request
    do_POST = handle_request

    def log_message(self, format, *args):
        pass


def main():
    directory = sys.argv[1]
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = certificate("ZeroPii test CA", "ZeroPii test CA", ca_key.public_key(), ca_key, True)
    server_key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
    server = certificate("localhost", "ZeroPii test CA", server_key.public_key(), ca_key, False, names)

    ca_file = os.path.join(directory, "ca.pem")
    chain_file = os.path.join(directory, "server.pem")
    key_file = os.path.join(directory, "server.key")
    with open(ca_file, "wb") as out:
        out.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(chain_file, "wb") as out:
        out.write(server.public_bytes(serialization.Encoding.PEM))
    with open(key_file, "wb") as out:
        out.write(
            server_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    spki = server_key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    pin = "sha256//" + base64.b64encode(hashlib.sha256(spki).digest()).decode()

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain_file, key_file)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.forward_port = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--forward" else None
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()

    print(json.dumps({"port": httpd.server_address[1], "ca": ca_file, "pin": pin}), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""A real SMTP server for the mail notifications' tests (Debian's python3-aiosmtpd).

usage: smtp_sink.py PORT DIR [--tls CERT KEY] [--require-tls] [--auth USER:PASSWORD]

Listens on 127.0.0.1:PORT and writes each message it accepts to DIR/N.eml (the bytes as
received, dot-stuffing undone) with DIR/N.rcpt (the envelope's recipients, one a line), written
under a temporary name and renamed, so a reader never sees half a mail. A recipient whose local
part starts with "bounce" is refused (550), one that starts with "later" deferred (451).
--tls offers STARTTLS with that certificate; --auth asks for AUTH (PLAIN or LOGIN) with those
credentials (over TLS only when --tls is given). Prints "ready" once it listens.
"""
import asyncio
import os
import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@")[0].lower()
        if local.startswith("bounce"):
            return "550 5.1.1 no such mailbox here"
        if local.startswith("later"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, "%06d" % self.count)
        for suffix, data in ((".rcpt", "\n".join(envelope.rcpt_tos).encode()),
                             (".eml", envelope.original_content or envelope.content)):
            with open(base + suffix + ".tmp", "wb") as f:
                f.write(data)
            os.rename(base + suffix + ".tmp", base + suffix)
        return "250 Message accepted"


def main():
    args = sys.argv[1:]
    port, directory = int(args[0]), args[1]
    kw = {}
    if "--tls" in args:
        i = args.index("--tls")
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(args[i + 1], args[i + 2])
        kw["tls_context"] = ctx
        kw["require_starttls"] = "--require-tls" in args
    if "--auth" in args:
        user, password = args[args.index("--auth") + 1].split(":", 1)

        def check(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                and auth_data.password.decode() == password
            return AuthResult(success=ok)

        kw["authenticator"] = check
        kw["auth_required"] = True
        kw["auth_require_tls"] = "--tls" in args
    controller = Controller(Sink(directory), hostname="127.0.0.1", port=port, **kw)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()

"""A dunning app in Python: stdlib http.server, Debian's stripe-python verifying Stripe-Signature
with construct_event. One "payment failed" notice per unpaid invoice, one "restored" notice when a
noticed invoice is paid, the account restricted while an invoice of the customer's is written off;
each event handled once. Its notices go back to the harness through RECORD_URL, as an app's emails
would go to a mail service. The harness attacks it on its port through serveRuns
(test/serve/python-harness.test.ts). DUNNING_FLAW picks one mistake:

  every-failure  a notice for each invoice.payment_failed it receives (every retry, every redelivery)

It prints its port as one JSON line once listening, and serves until killed.
"""
import json
import os
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import stripe

SECRET = os.environ["WEBHOOK_SECRET"]
RECORD_URL = os.environ["RECORD_URL"]
FLAW = os.environ.get("DUNNING_FLAW", "")

lock = threading.Lock()
db = {"events": set(), "invoices": {}, "written_off": {}}


def notify(call, *args):
    body = json.dumps({"call": call, "args": list(args)}).encode()
    request = urllib.request.Request(RECORD_URL, data=body, headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def handle(event):
    kind = event["type"]
    invoice = event["data"]["object"]
    if not kind.startswith("invoice."):
        return
    iid, customer = invoice["id"], invoice.get("customer")
    with lock:
        row = db["invoices"].setdefault(iid, {})
        off = db["written_off"].setdefault(customer, set())
        if kind == "invoice.payment_failed":
            if row.get("paid"):
                return
            first = not row.get("noticed")
            row["noticed"] = True
            if first or FLAW == "every-failure":
                notify("notices.paymentFailed", iid, customer, event["id"])
        elif kind == "invoice.marked_uncollectible":
            if row.get("paid") or iid in off:
                return
            off.add(iid)
            if len(off) == 1:
                notify("notices.restricted", customer, event["id"])
        elif kind in ("invoice.paid", "invoice.voided"):
            was_paid = row.get("paid")
            row["paid"] = True
            if kind == "invoice.paid" and row.get("noticed") and not was_paid and not row.get("restored"):
                row["restored"] = True
                notify("notices.restored", iid, customer, event["id"])
            if iid in off:
                off.discard(iid)
                if not off:
                    notify("notices.reinstated", customer, event["id"])


class App(BaseHTTPRequestHandler):
    def answer(self, status, text=""):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/test/reset":
            with lock:
                db["events"].clear()
                db["invoices"].clear()
                db["written_off"].clear()
            return self.answer(204)
        if self.path != "/webhook":
            return self.answer(404)
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), SECRET)
        except (ValueError, stripe.error.SignatureVerificationError):
            return self.answer(400, "bad signature")
        with lock:
            if event["id"] in db["events"]:
                return self.answer(200, "duplicate")
            db["events"].add(event["id"])
        handle(event.to_dict_recursive())
        self.answer(200, "ok")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), App)
print(json.dumps({"port": server.server_address[1]}), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)

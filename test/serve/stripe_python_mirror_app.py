"""A subscription mirror in Python, as a team with a Python backend writes one: stdlib http.server,
Debian's stripe-python verifying Stripe-Signature with construct_event (its default tolerance,
against the wall clock) and reading each subscription back from the API. The harness attacks it on
its port through serveRuns (test/serve/python-harness.test.ts). MIRROR_FLAW picks one mistake:

  payload   writes event.data.object as delivered, the last delivered wins (no API read)
  unsigned  writes the parsed body before verifying the signature (then reads back as it should)

It prints its port as one JSON line once listening, and serves until killed.
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import stripe

stripe.api_key = os.environ["SECRET_KEY"]
stripe.api_base = os.environ["API_BASE"]
stripe.max_network_retries = 0
SECRET = os.environ["WEBHOOK_SECRET"]
FLAW = os.environ.get("MIRROR_FLAW", "")
GRANTS = ("active", "trialing")

lock = threading.Lock()
table = {}


def mirrored(sub):
    """The fields the mirror keeps, read where the API version in use has them."""
    items = (sub.get("items") or {}).get("data") or [{}]
    item = items[0]
    price = item.get("price")
    end = item.get("current_period_end", sub.get("current_period_end"))
    return {
        "customer": str(sub.get("customer")),
        "status": str(sub.get("status")),
        "price": price if isinstance(price, str) else str((price or {}).get("id", "")),
        "quantity": int(item.get("quantity") or 0),
        "currentPeriodEnd": end if isinstance(end, int) else None,
        "cancelAtPeriodEnd": sub.get("cancel_at_period_end") is True,
    }


class App(BaseHTTPRequestHandler):
    def answer(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/test/subscriptions":
            with lock:
                return self.answer(200, dict(table))
        if self.path.startswith("/test/access/"):
            customer = self.path[len("/test/access/"):]
            with lock:
                return self.answer(200, any(s["customer"] == customer and s["status"] in GRANTS for s in table.values()))
        self.answer(404, {"error": "not found"})

    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/test/reset":
            with lock:
                table.clear()
            return self.answer(204)
        if self.path != "/webhook":
            return self.answer(404, {"error": "not found"})
        if FLAW == "unsigned":
            self.write_payload(json.loads(payload))
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), SECRET)
        except (ValueError, stripe.error.SignatureVerificationError):
            return self.answer(400, {"error": "bad signature"})
        if not event["type"].startswith("customer.subscription."):
            return self.answer(200, {"received": True})
        if FLAW == "payload":
            self.write_payload(json.loads(payload))
            return self.answer(200, {"received": True})
        try:
            sub = stripe.Subscription.retrieve(event["data"]["object"]["id"])
        except stripe.error.StripeError:
            # Not applied: a 5xx has the provider send it again.
            return self.answer(500, {"error": "read failed"})
        with lock:
            table[sub["id"]] = mirrored(sub.to_dict_recursive())
        self.answer(200, {"received": True})

    def write_payload(self, event):
        obj = ((event.get("data") or {}).get("object")) or {}
        if str(event.get("type", "")).startswith("customer.subscription.") and obj.get("id"):
            with lock:
                table[obj["id"]] = mirrored(obj)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), App)
print(json.dumps({"port": server.server_address[1]}), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)

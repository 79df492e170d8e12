"""A Checkout shop in Python: stdlib http.server, Debian's stripe-python. It ships an order once per
paid session, from the webhook (checkout.session.completed when paid, or
checkout.session.async_payment_succeeded for a delayed payment) or from the success page the
customer returns to (reading the session back), whichever comes first; one claim per session,
under a lock. Shipments go back to the harness through RECORD_URL. The harness attacks it on its
port through serveRuns (test/serve/python-harness.test.ts). SHOP_FLAW picks one mistake:

  page-ships  the success page ships as soon as the customer is back, without reading whether the
              session is paid (a delayed bank debit returns before it has cleared)

It prints its port as one JSON line once listening, and serves until killed.
"""
import json
import os
import sys
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import stripe

stripe.api_key = os.environ["SECRET_KEY"]
stripe.api_base = os.environ["API_BASE"]
stripe.max_network_retries = 0
SECRET = os.environ["WEBHOOK_SECRET"]
RECORD_URL = os.environ["RECORD_URL"]
FLAW = os.environ.get("SHOP_FLAW", "")

lock = threading.Lock()
shipped = set()


def ship(session_id, source):
    """Claims the session, then records the shipment: at most one per session."""
    with lock:
        if session_id in shipped:
            return
        shipped.add(session_id)
    body = json.dumps({"call": "orders.fulfil", "args": [session_id, source]}).encode()
    request = urllib.request.Request(RECORD_URL, data=body, headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def paid(session):
    return session.get("status") == "complete" and session.get("payment_status") in ("paid", "no_payment_required")


class App(BaseHTTPRequestHandler):
    def answer(self, status, text=""):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path != "/success":
            return self.answer(404)
        session_id = (urllib.parse.parse_qs(url.query).get("session_id") or [""])[0]
        if FLAW == "page-ships":
            ship(session_id, "success_page")
            return self.answer(200, "thanks")
        try:
            session = stripe.checkout.Session.retrieve(session_id)
        except stripe.error.StripeError:
            return self.answer(503, "try again")
        if paid(session):
            ship(session["id"], "success_page")
        self.answer(200, "thanks")

    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/test/reset":
            with lock:
                shipped.clear()
            return self.answer(204)
        if self.path != "/webhook":
            return self.answer(404)
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), SECRET)
        except (ValueError, stripe.error.SignatureVerificationError):
            return self.answer(400, "bad signature")
        session = event["data"]["object"]
        if event["type"] == "checkout.session.completed" and paid(session):
            ship(session["id"], event["id"])
        elif event["type"] == "checkout.session.async_payment_succeeded":
            ship(session["id"], event["id"])
        self.answer(200, "ok")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), App)
print(json.dumps({"port": server.server_address[1]}), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)

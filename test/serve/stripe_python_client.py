"""Drives `service-sim serve` as started (no --header-prefix, no --clock) with Debian's python3-stripe, the
way an app does, and prints what it saw as one JSON line. Run by test/serve/python-stripe.test.ts."""
import json
import os
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import stripe

base = os.environ["API_BASE"]
secret = os.environ["WEBHOOK_SECRET"]
stripe.api_key = os.environ["API_KEY"]
stripe.api_base = base
stripe.max_network_retries = 0

received = []
refused = []


class Receiver(BaseHTTPRequestHandler):
    """The webhook endpoint every app has: verify with the library's defaults, then answer 2xx."""

    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), secret)
            received.append({"id": event["id"], "type": event["type"], "object": event["data"]["object"]["id"]})
            self.send_response(200)
        except Exception as error:  # noqa: BLE001 - any refusal is reported to the test
            refused.append(repr(error))
            self.send_response(400)
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", int(os.environ["RECEIVER_PORT"])), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()

out = {}
admin = urllib.request.Request(
    base + "/__sim/accounts",
    data=b"{}",
    method="POST",
    headers={"Authorization": "Bearer " + os.environ["ADMIN_TOKEN"], "Content-Type": "application/json"},
)
account = json.load(urllib.request.urlopen(admin))["id"]
out["account"] = account

# A connected account's customer: created with Stripe-Account, invisible on the platform.
connected = stripe.Customer.create(email="connected@example.com", stripe_account=account)
out["connected_customer"] = connected.id
out["visible_on_connected"] = stripe.Customer.retrieve(connected.id, stripe_account=account).id == connected.id
try:
    stripe.Customer.retrieve(connected.id)
    out["visible_on_platform"] = True
except stripe.error.InvalidRequestError as error:
    out["visible_on_platform"] = False
    out["platform_lookup_status"] = error.http_status

# Booleans as this client sends them (python3-stripe 5.0 encodes True as 'True').
try:
    intent = stripe.PaymentIntent.create(amount=2000, currency="usd", confirm=True, payment_method="pm_card_visa")
    out["payment_intent"] = {"status": intent.status, "id": intent.id}
except stripe.error.StripeError as error:
    out["payment_intent"] = {"error": str(error), "code": error.code, "http_status": error.http_status}

# An idempotent repeat: same key, same object, marked as replayed.
first = stripe.Customer.create(email="idem@example.com", idempotency_key="python-idem-1")
again = stripe.Customer.create(email="idem@example.com", idempotency_key="python-idem-1")
headers = again.last_response.headers
out["idempotent"] = {
    "same": first.id == again.id,
    "replayed": headers.get("Idempotent-Replayed") or headers.get("idempotent-replayed"),
}

# A custom account with requested capabilities: the whole object, read as attributes.
acct = stripe.Account.create(
    type="custom",
    capabilities={"card_payments": {"requested": True}, "transfers": {"requested": True}},
)
out["custom_account"] = {
    "capabilities": dict(acct.capabilities),
    "currently_due": list(acct.requirements.currently_due),
    "statement_descriptor": acct.settings.payments.statement_descriptor,
    "payout_interval": acct.settings.payouts.schedule.interval,
    "controller": acct.controller.type,
    "external_accounts": acct.external_accounts.object,
    "tos_date": acct.tos_acceptance.date,
}
balance = stripe.Balance.retrieve()
out["balance"] = {
    "connect_reserved": [dict(b) for b in balance.connect_reserved],
    "instant_available": len(balance.instant_available),
    "issuing": len(balance.issuing.available),
}

# A webhook for a platform customer, delivered with no admin call and verified with the default tolerance.
customer = stripe.Customer.create(email="webhook@example.com")
started = time.time()
while time.time() - started < 10 and not any(r["object"] == customer.id for r in received):
    time.sleep(0.05)
out["webhook"] = {
    "delivered": any(r["object"] == customer.id and r["type"] == "customer.created" for r in received),
    "seconds": round(time.time() - started, 2),
    "received": len(received),
    "refused": refused,
}
server.shutdown()
print(json.dumps(out))

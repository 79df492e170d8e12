"""Drives `service-sim serve` started with no flags (but a free port) with Debian's python3-stripe:
a webhook endpoint made through the API, a connected account's customer made and listed with
stripe_account, and a platform event verified by construct_event. Prints what it saw as one JSON
line. Run by test/serve/python-stripe.test.ts."""
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import stripe

stripe.api_key = os.environ["API_KEY"]
stripe.api_base = os.environ["API_BASE"]
stripe.max_network_retries = 0

secret = {}
received = []
refused = []


class Receiver(BaseHTTPRequestHandler):
    """An app's webhook endpoint: verify with the library's defaults, then answer 2xx."""

    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), secret["value"])
            received.append(event["type"])
            self.send_response(200)
        except Exception as error:  # noqa: BLE001 - any refusal is reported to the test
            refused.append(repr(error))
            self.send_response(400)
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()

endpoint = stripe.WebhookEndpoint.create(
    url="http://127.0.0.1:%d/webhook" % server.server_address[1], enabled_events=["customer.created"]
)
secret["value"] = endpoint.secret

account = stripe.Account.create(type="custom", country="US", email="shop@example.com")
made = stripe.Customer.create(email="theirs@example.com", stripe_account=account.id)
theirs = [c.id for c in stripe.Customer.list(stripe_account=account.id).data]
platform = [c.id for c in stripe.Customer.list().data]
stripe.Customer.create(email="platform@example.com")

deadline = time.time() + 10
while not received and not refused and time.time() < deadline:
    time.sleep(0.05)

print(json.dumps({
    "connected_list": theirs,
    "connected_customer": made.id,
    "on_platform": made.id in platform,
    "received": received,
    "refused": refused,
}))

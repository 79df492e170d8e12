"""A one-secret webhook app in Python, as the provider's samples write one: its keys and its one
signing secret come from the .env file `serve --env-file` wrote. It makes a few API calls, then
waits until it has verified every snapshot event serve emitted, and prints what it saw as one JSON
line. Run by test/serve/python-stripe.test.ts."""
import json
import os
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import stripe

env = {}
with open(os.environ["ENV_FILE"]) as f:
    for line in f:
        if "=" in line and not line.startswith("#"):
            name, value = line.rstrip("\n").split("=", 1)
            env[name] = value

base = os.environ["API_BASE"]
stripe.api_key = env["STRIPE_SECRET_KEY"]
stripe.api_base = base
stripe.max_network_retries = 0
secret = env["STRIPE_WEBHOOK_SECRET"]

received = []
refused = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        payload = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = stripe.Webhook.construct_event(payload, self.headers.get("Stripe-Signature"), secret)
            received.append(event["id"])
            self.send_response(200)
        except Exception as error:  # noqa: BLE001 - any refusal is reported to the test
            refused.append(repr(error))
            self.send_response(400)
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", int(os.environ["RECEIVER_PORT"])), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()

customer = stripe.Customer.create(email="py@example.com", payment_method="pm_card_visa",
                                  invoice_settings={"default_payment_method": "pm_card_visa"})
stripe.Customer.modify(customer.id, name="Py")
product = stripe.Product.create(name="Py plan")
price = stripe.Price.create(product=product.id, currency="usd", unit_amount=1200, recurring={"interval": "month"})
stripe.Subscription.create(customer=customer.id, items=[{"price": price.id}])
stripe.PaymentIntent.create(amount=500, currency="usd", confirm=True, payment_method="pm_card_visa")


def emitted():
    with urllib.request.urlopen(base + "/__sim/events") as r:
        return [e["id"] for e in json.load(r)["data"] if e["kind"] == "snapshot"]


started = time.time()
expected = emitted()
while time.time() - started < 15 and not set(expected) <= set(received):
    time.sleep(0.05)
    expected = emitted()
time.sleep(0.3)  # a duplicate, if any, would arrive now
server.shutdown()
print(json.dumps({"expected": expected, "received": received, "refused": refused}))

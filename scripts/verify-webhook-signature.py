#!/usr/bin/env python3
"""Judges a webhook signature with the Standard Webhooks reference library (PyPI standardwebhooks):

    verify-webhook-signature.py SECRET ID TIMESTAMP SIGNATURE BODY_FILE

Exit 0 when `Webhook(SECRET).verify` accepts the body with those headers, 1 when it refuses.
"""
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main():
    secret, webhook_id, timestamp, signature, body_file = sys.argv[1:6]
    with open(body_file, "rb") as f:
        body = f.read()
    headers = {"webhook-id": webhook_id, "webhook-timestamp": timestamp, "webhook-signature": signature}
    try:
        Webhook(secret).verify(body, headers)
    except WebhookVerificationError as error:
        print(f"refused: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

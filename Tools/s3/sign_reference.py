#!/usr/bin/env python3
"""Signs S3 requests with botocore's S3SigV4Auth: the independent signer FZS3's SigV4 is checked
against (Tests/FZS3Tests/SigV4Tests.swift). Reads one JSON case a line on stdin:
  {"method":..,"url":..(encoded, as sent),"headers":{..},"payload":"<hash>","now":<epoch>,
   "key":..,"secret":..,"token":..|null,"region":..}
and prints each case's authorization header, a line each."""

import datetime
import json
import sys
from unittest import mock

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

for line in sys.stdin:
    case = json.loads(line)
    request = AWSRequest(method=case["method"], url=case["url"], headers=case["headers"])
    credentials = Credentials(case["key"], case["secret"], case.get("token"))
    now = datetime.datetime.fromtimestamp(case["now"], datetime.timezone.utc).replace(tzinfo=None)
    auth = S3SigV4Auth(credentials, "s3", case["region"])
    # The body is empty: botocore hashes it, unless the case says UNSIGNED-PAYLOAD.
    auth._should_sha256_sign_payload = lambda _request, signed=case["payload"] != "UNSIGNED-PAYLOAD": signed
    with mock.patch("botocore.auth.get_current_datetime", return_value=now):
        auth.add_auth(request)
    print(request.headers["Authorization"])

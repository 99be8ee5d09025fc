#!/usr/bin/env python3
"""An S3 server on 127.0.0.1 that checks SigV4, for Tests/FZS3Tests (issue 52): moto in server
mode (PyPI's moto[server]) with authentication on from the first request
(INITIAL_NO_AUTH_ACTION_COUNT=0: moto then recomputes every request's signature with botocore
from the IAM user's or assumed role's secret and checks its IAM policy), plus what moto lacks,
as a WSGI layer in front of it:
  - S3's clock rule: an x-amz-date more than 15 minutes from the server's clock is refused with
    S3's RequestTimeTooSkewed error (moto does not check the time);
  - the credential endpoints the chain asks, answered with credentials of an IAM role moto
    issues (STS AssumeRoleWithWebIdentity for the token in the state file, the container
    endpoint at /container-credentials checking its Authorization token, IMDSv2 under /latest/
    checking its session token);
  - two hostile listings: bucket "endless-same" repeats its continuation token, bucket
    "endless-growing" never ends; and bucket "slowdown", two requests of every three to which get
    S3's 503 SlowDown before moto sees them (a store that throttles), and bucket "always-busy",
    every request of which gets it;
  - bucket "skewed", whose clock runs 20 minutes ahead (the skew SigV4 refuses, without
    faking the client's clock);
  - a PUT of a key with "drop-upload" in its name: the connection is closed after the first
    4 KiB of the body (an upload that fails mid-way; S3 then stores nothing under the key),
    except from Tools/s3/objects.py, which puts the tests' inputs (header x-test-setup).
usage: moto_server.py STATEFILE PARENT_PID  -- picks a free port, writes it, the user's keys and
the tokens to STATEFILE as JSON, serves, and exits when PARENT_PID (the test runner) is gone.
Never reaches beyond 127.0.0.1."""

import calendar
import json
import os
import socket
import sys
import threading
import time
from urllib.parse import parse_qs

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"  # read when moto.settings is imported

from moto.core import DEFAULT_ACCOUNT_ID  # noqa: E402
from moto.iam.models import iam_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from moto.server import MotoRequestHandler  # noqa: E402
from moto.sts.models import sts_backends  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402

S3_ALL = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]})
WEB_TOKEN = "eyJ.web-identity-token.for-tests"
CONTAINER_TOKEN = "container-auth-token-for-tests"
IMDS_TOKEN = "imds-session-token-for-tests"


def setup():
    iam = iam_backends[DEFAULT_ACCOUNT_ID]["global"]
    iam.create_user("us-east-1", "forcezoom")
    iam.put_user_policy("forcezoom", "s3", S3_ALL)
    key = iam.create_access_key("forcezoom")
    trust = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Federated": "*"},
                                                                "Action": "sts:AssumeRoleWithWebIdentity"}]})
    role = iam.create_role("thumbs", trust, "/", None, "", [], None)
    iam.put_role_policy("thumbs", "s3", S3_ALL)
    return {"key": key.access_key_id, "secret": key.secret_access_key, "role": role.arn,
            "webToken": WEB_TOKEN, "containerToken": CONTAINER_TOKEN}


def assumed(role_arn, session):
    sts = sts_backends[DEFAULT_ACCOUNT_ID]["aws"]
    return sts.assume_role(region_name="us-east-1", role_session_name=session, role_arn=role_arn,
                           policy=None, duration=3600, external_id=None)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def xml_error(code, message, status, extra=""):
    body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>{message}</Message>'
            f"{extra}<RequestId>0</RequestId></Error>").encode()
    return status, [("Content-Type", "application/xml")], body


def listing(bucket, token, count):
    # endless-same: new keys on every page, the same token; endless-growing: new keys, new tokens.
    n = count if bucket == "endless-same" else int(token or "0")
    next_token = "same" if bucket == "endless-same" else str(n + 1)
    body = ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>' + bucket + "</Name><Prefix></Prefix>"
            f"<KeyCount>1</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>true</IsTruncated>"
            f"<Contents><Key>key-{n:09d}.jpg</Key><Size>1</Size><ETag>\"x\"</ETag></Contents>"
            f"<NextContinuationToken>{next_token}</NextContinuationToken></ListBucketResult>").encode()
    return 200, [("Content-Type", "application/xml")], body


class Front:
    def __init__(self, app, state):
        self.app = app
        self.state = state

    def __call__(self, environ, start_response):
        answer = self.route(environ)
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body = answer
        reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 503: "Slow Down"}.get(status, "Error")
        start_response(f"{status} {reason}", headers + [("Content-Length", str(len(body)))])
        return [body]

    def route(self, environ):
        path = environ.get("PATH_INFO", "")
        method = environ["REQUEST_METHOD"]
        query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        stamp = environ.get("HTTP_X_AMZ_DATE")
        first = path.strip("/").split("/")[0]
        if stamp:
            signed = calendar.timegm(time.strptime(stamp, "%Y%m%dT%H%M%SZ"))
            clock = time.time() + (20 * 60 if first == "skewed" else 0)
            if abs(signed - clock) > 15 * 60:
                now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock))
                return xml_error("RequestTimeTooSkewed",
                                 "The difference between the request time and the current time is too large.", 403,
                                 f"<RequestTime>{stamp}</RequestTime><ServerTime>{now}</ServerTime>"
                                 "<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds>")
        if first == "always-busy":
            return xml_error("SlowDown", "Please reduce your request rate.", 503)
        if method == "PUT" and "drop-upload" in path and not environ.get("HTTP_X_TEST_SETUP"):
            environ["wsgi.input"].read(4096)
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            environ["werkzeug.socket"].close()
            return 500, [], b""
        if first == "slowdown":
            self.slow = getattr(self, "slow", 0) + 1
            if self.slow % 3 != 0:
                return xml_error("SlowDown", "Please reduce your request rate.", 503)
        if first in ("endless-same", "endless-growing") and "list-type" in query:
            self.pages = getattr(self, "pages", 0) + 1
            return listing(first, query.get("continuation-token", [""])[0], self.pages)
        if path == "/" and method == "POST" and not environ.get("HTTP_AUTHORIZATION"):
            size = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(size)
            environ["wsgi.input"] = __import__("io").BytesIO(body)
            form = parse_qs(body.decode(), keep_blank_values=True)
            if form.get("Action") == ["AssumeRoleWithWebIdentity"]:
                if form.get("WebIdentityToken") != [WEB_TOKEN]:
                    return xml_error("InvalidIdentityToken", "The web identity token is not valid.", 400)
                role = assumed(form["RoleArn"][0], form["RoleSessionName"][0])
                body = ("<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>"
                        f"<AccessKeyId>{role.access_key_id}</AccessKeyId>"
                        f"<SecretAccessKey>{role.secret_access_key}</SecretAccessKey>"
                        f"<SessionToken>{role.session_token}</SessionToken>"
                        f"<Expiration>{iso(role.expiration)}</Expiration></Credentials>"
                        "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>").encode()
                return 200, [("Content-Type", "text/xml")], body
        if path == "/container-credentials":
            if environ.get("HTTP_AUTHORIZATION") != CONTAINER_TOKEN:
                return 401, [], b'{"message":"unauthorized"}'
            return self.role_json("container")
        if path == "/latest/api/token" and method == "PUT":
            if not environ.get("HTTP_X_AWS_EC2_METADATA_TOKEN_TTL_SECONDS"):
                return 400, [], b""
            return 200, [], IMDS_TOKEN.encode()
        if path.startswith("/latest/meta-data/iam/security-credentials/"):
            if environ.get("HTTP_X_AWS_EC2_METADATA_TOKEN") != IMDS_TOKEN:
                return 401, [], b""
            if path.endswith("/security-credentials/"):
                return 200, [], b"thumbs"
            return self.role_json("imds")
        return None

    def role_json(self, session):
        role = assumed(self.state["role"], session)
        return 200, [("Content-Type", "application/json")], json.dumps(
            {"Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": role.access_key_id,
             "SecretAccessKey": role.secret_access_key, "Token": role.session_token,
             "Expiration": iso(role.expiration), "LastUpdated": iso(role.expiration)}).encode()


def watch(parent):
    while True:
        try:
            os.kill(parent, 0)
        except OSError:
            os._exit(0)
        time.sleep(1)


def main():
    state_file, parent = sys.argv[1], int(sys.argv[2])
    threading.Thread(target=watch, args=(parent,), daemon=True).start()
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    os.environ["MOTO_PORT"] = str(port)
    state = setup()
    state["port"] = port
    app = Front(DomainDispatcherApplication(create_backend_app), state)
    with open(state_file + ".tmp", "w") as f:
        json.dump(state, f)
    os.rename(state_file + ".tmp", state_file)
    run_simple("127.0.0.1", port, app, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The S3 end-to-end tests' independent client (issue 52): boto3 against the local moto
(AWS_ENDPOINT_URL_S3 and the keys from the environment, path style), Pillow for the images.
  objects.py put BUCKET KEY=FILE...   create BUCKET if missing, upload each FILE as KEY
  objects.py list BUCKET [PREFIX]     one JSON line per object: key, size, and the image's
                                      width/height (null when Pillow cannot read it)
  objects.py get BUCKET KEY FILE      download KEY to FILE
Retries are generous (bucket "slowdown" answers 503 to two requests of three); every request
carries x-test-setup, so moto_server.py does not cut its uploads of drop-upload keys."""

import io
import json
import os
import sys

import boto3
from botocore.config import Config
from PIL import Image


def client():
    s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL_S3"], region_name="us-east-1",
                        config=Config(s3={"addressing_style": "path"},
                                      retries={"max_attempts": 10, "mode": "standard"}))
    # Marks the setup's requests, which moto_server.py lets through where it breaks forcezoom's.
    s3.meta.events.register("before-sign.s3", lambda request, **_: request.headers.add_header("x-test-setup", "1"))
    return s3


def main():
    s3 = client()
    command, bucket = sys.argv[1], sys.argv[2]
    if command == "put":
        try:
            s3.head_bucket(Bucket=bucket)
        except Exception:
            s3.create_bucket(Bucket=bucket)
        for pair in sys.argv[3:]:
            key, path = pair.rsplit("=", 1)
            with open(path, "rb") as f:
                s3.put_object(Bucket=bucket, Key=key, Body=f.read())
    elif command == "list":
        prefix = sys.argv[3] if len(sys.argv) > 3 else ""
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
            for entry in page.get("Contents", []):
                body = s3.get_object(Bucket=bucket, Key=entry["Key"])["Body"].read()
                try:
                    width, height = Image.open(io.BytesIO(body)).size
                except Exception:
                    width = height = None
                print(json.dumps({"key": entry["Key"], "size": entry["Size"], "width": width, "height": height}))
    elif command == "get":
        with open(sys.argv[4], "wb") as f:
            f.write(s3.get_object(Bucket=bucket, Key=sys.argv[3])["Body"].read())
    else:
        sys.exit(f"objects.py: unknown command {command}")


if __name__ == "__main__":
    main()

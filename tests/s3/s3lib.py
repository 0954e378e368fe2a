# SPDX-FileCopyrightText: 2026 The smprof authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A tiny S3 client for the tests (Python standard library only): signed
(SigV4) PUT of buckets and objects, path-style, on one keep-alive connection
per thread. The server checks the signatures, so this is independent of the
C signer under test.
"""

import concurrent.futures
import datetime
import hashlib
import hmac
import http.client
import os
import threading
import urllib.parse

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"


def _quote(text, safe=""):
    return urllib.parse.quote(text, safe=UNRESERVED + safe)


class S3:
    def __init__(self, endpoint, access_key, secret_key, region="us-east-1"):
        parsed = urllib.parse.urlsplit(endpoint)
        self.host = parsed.hostname
        self.port = parsed.port
        self.netloc = parsed.netloc
        self.access_key = access_key
        self.secret_key = secret_key
        self.region = region
        self._local = threading.local()

    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            self._local.conn = conn
        return conn

    def _sign(self, method, path, query, payload):
        now = datetime.datetime.now(datetime.timezone.utc)
        amz_date = now.strftime("%Y%m%dT%H%M%SZ")
        date = amz_date[:8]
        payload_hash = hashlib.sha256(payload).hexdigest()
        canonical_query = "&".join("%s=%s" % (_quote(k), _quote(v)) for k, v in sorted(query))
        headers = {"host": self.netloc, "x-amz-content-sha256": payload_hash, "x-amz-date": amz_date}
        signed = ";".join(sorted(headers))
        canonical = "\n".join([method, _quote(path, "/"), canonical_query,
                               "".join("%s:%s\n" % (k, headers[k]) for k in sorted(headers)),
                               signed, payload_hash])
        scope = "%s/%s/s3/aws4_request" % (date, self.region)
        to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                             hashlib.sha256(canonical.encode()).hexdigest()])
        key = ("AWS4" + self.secret_key).encode()
        for part in (date, self.region, "s3", "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        headers["authorization"] = ("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s"
                                    % (self.access_key, scope, signed, signature))
        return _quote(path, "/") + ("?" + canonical_query if canonical_query else ""), headers

    def request(self, method, path, query=(), payload=b""):
        target, headers = self._sign(method, path, list(query), payload)
        for attempt in range(3):
            conn = self._conn()
            try:
                conn.request(method, target, body=payload, headers=headers)
                resp = conn.getresponse()
                return resp.status, resp.read()
            except (http.client.HTTPException, OSError):
                conn.close()
                self._local.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def create_bucket(self, bucket):
        status, body = self.request("PUT", "/" + bucket)
        if status not in (200, 409):
            raise RuntimeError("create bucket %s: %d %s" % (bucket, status, body[:300]))

    def put(self, bucket, key, data):
        status, body = self.request("PUT", "/%s/%s" % (bucket, key), payload=data)
        if status != 200:
            raise RuntimeError("PUT %s: %d %s" % (key, status, body[:300]))

    def put_many(self, bucket, items, workers=8):
        """items: (key, bytes) pairs, uploaded in parallel."""
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            for f in [pool.submit(self.put, bucket, k, d) for k, d in items]:
                f.result()

    def upload_tree(self, bucket, prefix, folder, skip=()):
        """Uploads every file below folder as prefix/<relative path>; returns the keys."""
        items = []
        for dirpath, dirnames, filenames in os.walk(folder):
            rel_dir = os.path.relpath(dirpath, folder)
            if rel_dir.split(os.sep)[0] in skip:
                continue
            for name in filenames:
                rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
                with open(os.path.join(dirpath, name), "rb") as f:
                    items.append((prefix + "/" + rel if prefix else rel, f.read()))
        self.put_many(bucket, items)
        return [k for k, _ in items]

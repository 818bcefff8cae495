# Hooks of test/faults/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS). A Source write can
# be refused for rules no JSON Schema can state: hostnames unique across all Sources (the server's
# state), at most 100 hostnames per Source counting service_subdomains and custom_domains together
# (two lists, one bound), and a PATCH body's id equal to the one in the URL. So that
# positive_data_acceptance can hold those writes to a 2xx, each generated write is made to meet
# them before it is sent: its service subdomains get labels no other request used (still matching
# the schema's pattern) and its custom domains likewise, each list at most 50 long (a PATCH may
# leave the stored other list in place), and a PATCH body carries the URL's id.
import itertools
import uuid
from urllib.parse import unquote

import schemathesis

_unique = itertools.count()
_run = uuid.uuid4().hex[:8]

MAX_EACH = 50

SOURCE_WRITES = {("POST", "/api/v1/sources"), ("PATCH", "/api/v1/sources/{id}")}


def _fresh_hostnames(deployment):
    if not isinstance(deployment, dict):
        return
    for field, make in (
        ("service_subdomains", lambda n: f"fuzz-{_run}-{n}"),
        ("custom_domains", lambda n: f"fuzz-{_run}-{n}.example.com"),
    ):
        names = deployment.get(field)
        if isinstance(names, list):
            deployment[field] = [make(next(_unique)) if isinstance(name, str) else name for name in names[:MAX_EACH]]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if (case.method.upper(), case.path) not in SOURCE_WRITES or not isinstance(case.body, dict):
        return
    data = case.body.get("data")
    if not isinstance(data, dict):
        return
    attributes = data.get("attributes")
    if isinstance(attributes, dict):
        _fresh_hostnames(attributes.get("deployment"))
    if case.method.upper() == "PATCH" and "id" in data and isinstance(case.path_parameters, dict):
        data["id"] = unquote(str(case.path_parameters.get("id", data["id"])))

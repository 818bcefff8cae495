# Hooks of test/faults/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS). A Source write can
# be refused for rules no JSON Schema can state: hostnames unique across all Sources (the server's
# state), at most 100 hostnames per Source counting service_subdomains and custom_domains together
# (two lists, one bound), a PATCH body's id equal to the one in the URL, and a PATCH's id naming a
# Source of the account (a generated id almost never does). So that positive_data_acceptance can
# hold those writes to a 2xx, each generated write is made to meet them before it is sent: its
# service subdomains get labels no other request used (still matching the schema's pattern) and its
# custom domains likewise, each list at most 50 long (a PATCH may leave the stored other list in
# place); a PATCH whose id was generated valid gets the id of a Source of the account (the one it
# names, else a new one, created here through the API at ASSET_DELIVERY_BASE_URL with
# ASSET_DELIVERY_API_KEY), and its body carries the URL's id. An id generated invalid is left as it
# is, for the checks that expect it refused.
#
# A valid PATCH or purge may still meet a refusal (400) that the server's state or a rule across
# fields decides, which no JSON Schema states (schemathesis.toml accepts a 400 there): the check
# `refused_only_for_a_named_rule` holds each such 400 to the rules named in REFUSALS, by the
# error's detail, so that any other refusal of a valid document fails the run.
import itertools
import json
import os
import re
import urllib.error
import urllib.request
import uuid
from urllib.parse import quote, unquote

import schemathesis
from schemathesis.core.parameters import ParameterLocation

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


def _api(method, path, document=None):
    """One request to the API under test, with the run's key: its status and parsed body."""
    request = urllib.request.Request(
        os.environ["ASSET_DELIVERY_BASE_URL"] + path,
        method=method,
        data=None if document is None else json.dumps(document).encode(),
        headers={
            "Authorization": f"Bearer {os.environ['ASSET_DELIVERY_API_KEY']}",
            "Content-Type": "application/vnd.api+json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def _existing_source_id(generated_id):
    """The generated id when it names a Source of the account, else the id of a new one."""
    status, _ = _api("GET", f"/api/v1/sources/{quote(generated_id, safe='')}")
    if status == 200:
        return generated_id
    n = next(_unique)
    status, created = _api(
        "POST",
        "/api/v1/sources",
        {
            "data": {
                "type": "sources",
                "attributes": {
                    "name": f"fuzz PATCH target {n}",
                    "deployment": {"type": "webproxy", "service_subdomains": [f"fuzz-{_run}-{n}"]},
                },
            }
        },
    )
    if status != 201:
        raise RuntimeError(f"creating a Source for a PATCH answered {status}")
    return created["data"]["id"]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if (
        case.method.upper() == "PATCH"
        and case.path == "/api/v1/sources/{id}"
        and isinstance(case.path_parameters, dict)
        and isinstance(case.path_parameters.get("id"), str)
        and (case.meta is None or not case.meta.is_negative_at(ParameterLocation.PATH))
    ):
        case.path_parameters = {**case.path_parameters, "id": _existing_source_id(unquote(case.path_parameters["id"]))}
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


# What a valid document may be refused for, by operation: the rule's words in the error's detail.
REFUSALS = {
    ("PATCH", "/api/v1/sources/{id}"): [
        # A change of deployment type without the new type's secrets: they depend on the stored type.
        re.compile(r"is required when the deployment type changes to \w+ \(stored secrets are not carried over\)"),
        # enabled: false with other changes (the stored Source decides what is a change), or a change
        # to a Source an earlier request disabled (the stateful phase sends several to one Source).
        re.compile(r"a Source cannot be disabled together with other changes"),
        re.compile(r"a disabled Source cannot be updated"),
    ],
    ("POST", "/api/v1/purge"): [
        # The URL's host must be one of the account's Sources' hostnames (the server's state).
        re.compile(r"the host \".*\" must be a service subdomain on \S+ or a custom domain of one of this account's Sources"),
        # A URL no WHATWG parser takes as an absolute http(s) URL: the schema says so in words only.
        re.compile(r"must be an absolute http:// or https:// URL"),
        # sub_image and source_id go together, and the Source must be the account's.
        re.compile(r"is required with sub_image: true"),
        re.compile(r"is only accepted with sub_image: true"),
        re.compile(r"no Source \".*\" in this account"),
    ],
}


@schemathesis.check
def refused_only_for_a_named_rule(ctx, response, case):
    """A 400 to a valid PATCH or purge names one of the REFUSALS in each of its errors' details."""
    rules = REFUSALS.get((case.method.upper(), case.path))
    if rules is None or response.status_code != 400:
        return None
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    try:
        details = [str(error.get("detail", "")) for error in response.json().get("errors", [])]
    except (ValueError, AttributeError):
        details = []
    unnamed = [detail for detail in details if not any(rule.search(detail) for rule in rules)]
    if not details or unnamed:
        raise AssertionError(
            f"{case.method.upper()} {case.path}: a valid document refused (400) for a rule schemathesis_hooks.py does not name: "
            + (json.dumps(unnamed) if unnamed else "no error detail")
        )
    return True

#!/usr/bin/env python3
"""Checks that the JSON Schemas in docs/schemas/ describe the files mheta
reads: the bundled examples must validate, and the same files made invalid
(a negative time, a missing field, an unknown format) must not."""
import copy
import json
import sys

import jsonschema

root = sys.argv[1]


def load(path):
    with open(root + "/" + path) as f:
        return json.load(f)


failures = []


def expect(valid, schema, document, what):
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    if valid and errors:
        failures.append("%s: expected valid, got: %s" % (what, errors[0].message))
    if not valid and not errors:
        failures.append("%s: expected a schema error, got none" % what)


cluster_schema = load("docs/schemas/cluster.schema.json")
profile_schema = load("docs/schemas/profile.schema.json")
jsonschema.Draft202012Validator.check_schema(cluster_schema)
jsonschema.Draft202012Validator.check_schema(profile_schema)

for example in ("jacobi-hy1", "rna-pipeline"):
    cluster = load("examples/%s/cluster.json" % example)
    profile = load("examples/%s/profile.json" % example)
    expect(True, cluster_schema, cluster, example + "/cluster.json")
    expect(True, profile_schema, profile, example + "/profile.json")

    bad = copy.deepcopy(cluster)
    bad["network"]["send_overhead_s"] = -1
    expect(False, cluster_schema, bad, example + "/cluster.json with a negative overhead")
    bad = copy.deepcopy(cluster)
    del bad["nodes"][0]["disk"]["read_s_per_byte"]
    expect(False, cluster_schema, bad, example + "/cluster.json without read_s_per_byte")
    curved = copy.deepcopy(cluster)
    curved["network"]["curve"] = [{"bytes": 8, "s": 2.5e-7}, {"bytes": 262144, "s": 5.3e-5}]
    expect(True, cluster_schema, curved, example + "/cluster.json with a link curve")
    curved["network"]["curve"][1]["s"] = -1
    expect(False, cluster_schema, curved, example + "/cluster.json with a negative curve time")
    del curved["network"]["curve"][1]["s"]
    expect(False, cluster_schema, curved, example + "/cluster.json with a curve point without s")
    bad = copy.deepcopy(profile)
    bad["format"] = "mheta-profile/2"
    expect(False, profile_schema, bad, example + "/profile.json of another format")
    bad = copy.deepcopy(profile)
    bad["ranks"][0]["sections"][0]["stages"][0]["compute_s"] = -0.5
    expect(False, profile_schema, bad, example + "/profile.json with a negative compute time")
    bad = copy.deepcopy(profile)
    bad["ranks"][0]["sections"][-1]["comm"] = [{"op": "send", "bytes": 8}]
    expect(False, profile_schema, bad, example + "/profile.json with a send without peer")

for failure in failures:
    print("FAIL " + failure)
print("%d passed, %d failed" % (2 * 2 + 2 * 8 - len(failures), len(failures)))
sys.exit(1 if failures else 0)

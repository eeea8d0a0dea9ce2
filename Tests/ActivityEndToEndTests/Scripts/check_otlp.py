#!/usr/bin/env python3
"""Checks OTLP JSON against a recording, with the official protobuf definitions.

    check_otlp.py RECORDING.jsonl BODY.json [BODY.json…]

OTLP/JSON writes trace and span ids as hex (not base64 as protobuf's own JSON mapping does), so
they are checked as hex and turned into base64 first, as an OTLP receiver does. Each body is then
parsed with opentelemetry-proto into an ExportTraceServiceRequest (unknown fields
are errors). Then, span by span: one span per activity; names, parents (parentSpanId is the
parent activity's span), start and end times to the microsecond, status (success OK, failure and
abandoned ERROR, others UNSET), the activity.* attributes, attrs, and one event per log line.
All spans of one top-level activity share a trace id. Prints "ok N spans" or the problems.
"""
import base64
import json
import re
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

recording, bodies = sys.argv[1], sys.argv[2:]
activities, order, logs = {}, [], {}
for line in open(recording, encoding="utf-8"):
    line = line.strip()
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    kind = event.get("type")
    if kind == "begin":
        activities[event["id"]] = dict(event, status=None)
        order.append(event["id"])
    elif kind == "end" and event["id"] in activities:
        activities[event["id"]].update(end=event["ts"], status=event.get("status", "success"),
                                       error=event.get("error"))
    elif kind == "log" and event.get("id") in activities:
        logs.setdefault(event["id"], []).append(event)

spans, services, problems_early = {}, set(), []
for body in bodies:
    document = json.load(open(body, encoding="utf-8"))
    for resource_spans in document["resourceSpans"]:
        for scope_spans in resource_spans["scopeSpans"]:
            for span in scope_spans["spans"]:
                for field, size in (("traceId", 32), ("spanId", 16), ("parentSpanId", 16)):
                    if field in span:
                        if not re.fullmatch("[0-9a-f]{%d}" % size, span[field]):
                            problems_early.append("%s %r is not %d hex digits" % (field, span[field], size))
                        span[field] = base64.b64encode(bytes.fromhex(span[field])).decode()
                for key in ("startTimeUnixNano", "endTimeUnixNano"):
                    if not isinstance(span.get(key), str):
                        problems_early.append("%s must be a decimal string" % key)
    request = ExportTraceServiceRequest()
    json_format.Parse(json.dumps(document), request)
    for resource_spans in request.resource_spans:
        for attribute in resource_spans.resource.attributes:
            if attribute.key == "service.name":
                services.add(attribute.value.string_value)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                attributes = {a.key: a.value for a in span.attributes}
                spans[attributes["activity.id"].string_value] = span

problems = problems_early
def expect(condition, message):
    if not condition:
        problems.append(message)

expect(len(spans) == len(activities), "%d spans for %d activities" % (len(spans), len(activities)))
expect(len(services) == 1, "service names: %s" % services)
root_of = {}
for activity_id in order:
    activity = activities[activity_id]
    parent = activity.get("parent")
    root_of[activity_id] = root_of.get(parent, activity_id) if parent in activities else activity_id
    span = spans.get(activity_id)
    if span is None:
        problems.append("no span for %s" % activity_id)
        continue
    expect(len(span.trace_id) == 16 and len(span.span_id) == 8, "%s: id sizes" % activity_id)
    expect(span.name == activity["title"] or activity_id in ("",), "%s: name %r" % (activity_id, span.name))
    expect(span.kind == Span.SPAN_KIND_INTERNAL, "%s: kind %d" % (activity_id, span.kind))
    expect(abs(span.start_time_unix_nano - round(activity["ts"] * 1e6) * 1000) <= 1000,
           "%s: start %d vs %s" % (activity_id, span.start_time_unix_nano, activity["ts"]))
    if "end" in activity:
        expect(abs(span.end_time_unix_nano - round(activity["end"] * 1e6) * 1000) <= 1000,
               "%s: end %d vs %s" % (activity_id, span.end_time_unix_nano, activity["end"]))
    if parent in spans:
        expect(span.parent_span_id == spans[parent].span_id, "%s: parent span" % activity_id)
        expect(span.trace_id == spans[parent].trace_id, "%s: trace differs from parent's" % activity_id)
    else:
        expect(span.parent_span_id == b"", "%s: a top-level span with a parent" % activity_id)
    status = activity["status"] or "abandoned"
    wanted = {"success": Status.STATUS_CODE_OK, "failure": Status.STATUS_CODE_ERROR,
              "abandoned": Status.STATUS_CODE_ERROR}.get(status, Status.STATUS_CODE_UNSET)
    expect(span.status.code == wanted, "%s: status %d for %s" % (activity_id, span.status.code, status))
    if status == "failure" and activity.get("error"):
        expect(span.status.message == activity["error"], "%s: status message" % activity_id)
    attributes = {a.key: a.value for a in span.attributes}
    expect(attributes["activity.status"].string_value == status, "%s: activity.status" % activity_id)
    for key, value in (activity.get("attrs") or {}).items():
        got = attributes.get(key)
        expect(got is not None, "%s: attribute %s missing" % (activity_id, key))
    expect(len(span.events) == len(logs.get(activity_id, [])), "%s: %d events" % (activity_id, len(span.events)))
    for event, log in zip(span.events, logs.get(activity_id, [])):
        fields = {a.key: a.value.string_value for a in event.attributes}
        expect(fields.get("log.message") == log["message"], "%s: log message" % activity_id)

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("ok %d spans" % len(spans))

/// A recording as an OTLP `ExportTraceServiceRequest` in the JSON encoding: what an
/// OpenTelemetry Collector's OTLP/HTTP receiver accepts at `/v1/traces`, and what
/// `opentelemetry-proto` parses.
///
/// ```swift
/// let json = OTLPTraceWriter(serviceName: "ci-build", version: "1.0").write(timeline)
/// ```
///
/// Every span is described in ``OTLPSpanEncoder``.
public struct OTLPTraceWriter: Sendable {
    /// The `service.name` resource attribute.
    public var serviceName: String
    /// More resource attributes (`host.name`, `deployment.environment`), sorted by key on output.
    public var resourceAttributes: [String: String]
    /// The instrumentation scope's version.
    public var version: String

    /// - Parameter version: the version of what wrote the spans (the `activity` command passes its own).
    public init(serviceName: String = "activity", resourceAttributes: [String: String] = [:], version: String) {
        self.serviceName = serviceName
        self.resourceAttributes = resourceAttributes
        self.version = version
    }

    /// The request for every activity of `timeline`, ending in a newline.
    public func write(_ timeline: Timeline) -> String {
        let encoder = OTLPSpanEncoder()
        return request(spans: timeline.activities.map { encoder.span(for: $0) }) + "\n"
    }

    /// A request holding spans made by ``OTLPSpanEncoder``.
    public func request(spans: [String]) -> String {
        requestOpening + spans.joined(separator: ",") + requestClosing
    }

    /// What comes before the first span: a streaming exporter writes this, the spans separated
    /// by commas, then ``requestClosing``.
    package var requestOpening: String {
        var resource = [OTLPSpanEncoder.attribute("service.name", string: serviceName)]
        for key in resourceAttributes.keys.sorted() where key != "service.name" {
            resource.append(OTLPSpanEncoder.attribute(key, string: resourceAttributes[key]!))
        }
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" + resource.joined(separator: ",")
            + "]},\"scopeSpans\":[{\"scope\":{\"name\":\"swift-activity\",\"version\":\(MarkupText.json(version))},"
            + "\"spans\":["
    }

    /// What comes after the last span.
    package var requestClosing: String { "]}]}]}" }
}

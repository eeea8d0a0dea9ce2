import Testing

@testable import ActivityCLI

@Suite("OTLP settings: the endpoint, headers, timeout and resource from options and OTEL_ variables")
struct OTLPSettingsTests {
    @Test("endpoints: the option and OTEL_EXPORTER_OTLP_ENDPOINT get /v1/traces; https; bad URLs and files")
    func settings() throws {
        func resolve(_ option: String?, _ environment: [String: String]) throws -> OTLPSettings? {
            try OTLPSettings.resolve(option: option, environment: { environment[$0] })
        }
        #expect(try resolve(nil, [:]) == nil)
        #expect(try resolve("http://collector:4318", [:])?.endpoint.description == "http://collector:4318/v1/traces")
        #expect(
            try resolve(nil, ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/base/"])?.endpoint.path == "/base/v1/traces"
        )
        #expect(
            try resolve(
                nil, ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c/x", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://d"])?
                .endpoint == HTTPEndpoint(host: "c", port: 80, path: "/x"))
        #expect(try resolve(nil, ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_TRACES_EXPORTER": "none"]) == nil)
        #expect(try resolve("http://[::1]:4318", [:])?.endpoint.authority == "[::1]:4318")
        let configured = try resolve(
            "http://c",
            [
                "OTEL_EXPORTER_OTLP_HEADERS": "x-team=a%20b, api-key = k", "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
                "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-resource,host.name=ci-3",
            ])
        #expect(configured?.headers == ["x-team: a b", "api-key: k"])
        #expect(configured?.timeout == 2.5)
        #expect(configured?.serviceName == "from-resource")
        #expect(configured?.resourceAttributes["host.name"] == "ci-3")
        let secure = try resolve("https://collector/base", [:])?.endpoint
        #expect(secure?.description == "https://collector/base/v1/traces")
        #expect(secure?.port == 443 && secure?.isSecure == true)
        #expect(try resolve("HTTPS://c:8443", [:])?.endpoint.description == "https://c:8443/v1/traces")
        #expect(throws: HTTPEndpoint.Invalid.self) { try resolve("ftp://collector:4318", [:]) }
        #expect(throws: HTTPEndpoint.Invalid.self) { try resolve("http://c/a b", [:]) }
    }
}

extension OTLPSettings: Equatable {
    public static func == (lhs: OTLPSettings, rhs: OTLPSettings) -> Bool { lhs.endpoint == rhs.endpoint }
}

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-activity",
    products: [
        .library(name: "ActivityWire", targets: ["ActivityWire"]),
        .library(name: "ActivityReporting", targets: ["ActivityReporting"]),
        .library(name: "InMemoryActivity", targets: ["InMemoryActivity"]),
        .library(name: "ActivityRendering", targets: ["ActivityRendering"]),
        .library(name: "ActivityRendererConformance", targets: ["ActivityRendererConformance"]),
        .library(name: "ActivityOverlay", targets: ["ActivityOverlay"]),
        .library(name: "ActivityOverlayTerminal", targets: ["ActivityOverlayTerminal"]),
        .library(name: "ActivityTimeline", targets: ["ActivityTimeline"]),
        .library(name: "ActivityAdapters", targets: ["ActivityAdapters"]),
        .library(name: "CActivity", targets: ["CActivity"]),
        .executable(name: "activity", targets: ["ActivityCLI"]),
        .executable(name: "activity-bench", targets: ["ActivityBench"]),
    ],
    targets: []
)

// MARK: - The system calls every module spells the same way

package.targets += [
    .target(name: "ActivityPOSIX"),
    .testTarget(name: "ActivityPOSIXTests", dependencies: ["ActivityPOSIX", "TestSupport"]),
]

// MARK: - What the tests share (a tmux pane, a pyte screen, running a program)

package.targets += [
    .target(name: "TestSupport", dependencies: ["ActivityWire"], path: "Tests/TestSupport")
]

// MARK: - Wire protocol

package.targets += [
    .target(name: "ActivityWire"),
    // JSONTestSuite holds test data (JSON files read at run time), not sources.
    .testTarget(
        name: "ActivityWireTests", dependencies: ["ActivityWire", "TestSupport"],
        exclude: ["JSONTestSuite", "Captures"]),
]

// MARK: - Producers

package.targets += [
    .target(name: "ActivityReporting", dependencies: ["ActivityWire", "ActivityPOSIX", "ActivityTerminal"]),
    .target(name: "InMemoryActivity", dependencies: ["ActivityWire"]),
    .testTarget(
        name: "ActivityReportingTests",
        dependencies: [
            "ActivityReporting", "InMemoryActivity", "ActivityWire", "activity-example-downloads",
            "activity-conformance-c", "activity-sdk-fork-helper", "ActivityCLI", "TestSupport",
        ]
    ),
    // The C side of the SDK/C-library conformance test (ActivityReportingTests runs both).
    .executableTarget(
        name: "activity-conformance-c", dependencies: ["CActivity"], path: "Tests/Conformance/scenario-c",
        linkerSettings: [.linkedLibrary("m")]
    ),
    .executableTarget(
        name: "activity-sdk-fork-helper", dependencies: ["ActivityReporting"], path: "Tests/Conformance/fork-helper"
    ),
    .executableTarget(name: "activity-example-downloads", dependencies: ["ActivityReporting"], path: "Examples/swift"),
]

// MARK: - C shim (also built standalone by Sources/CActivity/Makefile)

package.targets += [
    // json-c's headers and library where pkg-config says (/usr on Debian, Homebrew's prefix on a Mac).
    .systemLibrary(
        name: "CJSONC", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"]), .brew(["json-c"])]
    ),
    .target(
        name: "CActivity",
        dependencies: ["CJSONC"],
        exclude: ["Makefile", "activity.pc.in", "tests", "bench", "fuzz"],
        linkerSettings: [.linkedLibrary("pthread", .when(platforms: [.linux])), .linkedLibrary("m")]
    ),
    .testTarget(name: "CActivityTests", dependencies: ["CActivity", "ActivityWire", "TestSupport"]),
]

// MARK: - Terminal (package-level: width, sanitizer, style detection, size for every display)

package.targets += [
    .target(name: "ActivityTerminal", dependencies: ["ActivityWire", "ActivityPOSIX"]),
    .testTarget(
        name: "ActivityTerminalTests", dependencies: ["ActivityTerminal", "ActivityPOSIX", "TestSupport"],
        exclude: ["Fixtures"]),
]

// MARK: - Consumers

package.targets += [
    .target(
        name: "ActivityRendering",
        dependencies: ["ActivityWire", "ActivityTerminal", "ActivityPOSIX"]
    ),
    .testTarget(
        name: "ActivityRenderingTests",
        dependencies: [
            "ActivityRendering", "ActivityWire", "ActivityTerminal", "ActivityOverlay", "ActivityOverlayTerminal",
            "TestSupport",
        ],
        exclude: ["Golden", "Fixtures"]
    ),
    // For the authors of renderers: drives one through the protocol's sequences, returns its problems.
    .target(name: "ActivityRendererConformance", dependencies: ["ActivityRendering", "ActivityWire"]),
    .testTarget(
        name: "ActivityRendererConformanceTests",
        dependencies: ["ActivityRendererConformance", "ActivityRendering", "ActivityWire"]
    ),
    .target(name: "ActivityOverlay", dependencies: ["ActivityWire"]),
    // The overlay's picture on a terminal, beside the model: it needs the model and the wire only.
    .target(name: "ActivityOverlayTerminal", dependencies: ["ActivityOverlay", "ActivityWire"]),
    .testTarget(
        name: "ActivityOverlayTests",
        dependencies: [
            "ActivityOverlay", "ActivityOverlayTerminal", "ActivityWire", "ActivityReporting", "ActivityTerminal",
            "ActivityRendering", "TestSupport",
        ]
    ),
    .target(name: "ActivityTimeline", dependencies: ["ActivityWire"]),
    .testTarget(
        name: "ActivityTimelineTests", dependencies: ["ActivityTimeline", "ActivityWire", "TestSupport"],
        exclude: ["Golden"]
    ),
]

// MARK: - Adapters: real tools' own progress output as events

package.targets += [
    .target(name: "ActivityAdapters", dependencies: ["ActivityWire"]),
    .testTarget(
        name: "ActivityAdaptersTests",
        dependencies: ["ActivityAdapters", "ActivityWire", "ActivityCLI", "ActivityTerminal", "TestSupport"],
        exclude: ["Fixtures"]
    ),
]

// MARK: - Command line

package.targets += [
    // libdl and libpthread are Linux's; on Darwin both are part of libSystem.
    .target(
        name: "CHTTPSPost",
        linkerSettings: [
            .linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("pthread", .when(platforms: [.linux])),
        ]
    ),
    .executableTarget(
        name: "ActivityCLI",
        dependencies: [
            "ActivityWire", "ActivityReporting", "ActivityRendering", "ActivityOverlay", "ActivityOverlayTerminal",
            "ActivityTerminal", "ActivityTimeline", "ActivityAdapters", "ActivityPOSIX", "CHTTPSPost",
        ]
    ),
    .testTarget(
        name: "ActivityCLITests",
        dependencies: [
            "ActivityCLI", "ActivityWire", "ActivityTimeline", "ActivityRendering", "ActivityPOSIX", "TestSupport",
        ]
    ),
    // The tests that run the built programs (`activity` in pipes, on pseudo-terminals and in tmux),
    // the repository's scripts and its documents' code blocks. They import no module of the
    // command: what they check is what a user sees.
    .testTarget(
        name: "ActivityEndToEndTests",
        dependencies: ["ActivityWire", "ActivityTimeline", "TestSupport"],
        exclude: ["Golden", "Fixtures", "Scripts"]
    ),
]

// MARK: - Benchmarks

package.targets += [
    .executableTarget(
        name: "ActivityBench",
        dependencies: [
            "ActivityWire", "ActivityReporting", "ActivityRendering", "CActivity", "ActivityCLI", "ActivityTerminal",
        ],
        path: "Benchmarks/ActivityBench"
    )
]

// MARK: - Strict settings for every target

for target in package.targets where target.type != .system && target.type != .binary {
    guard target.name != "CActivity" else { continue }
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

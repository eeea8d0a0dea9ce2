import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("Machine formats: what becomes a log line")
struct MachineFormatLogTests {
    static func logs(_ file: String, _ adapter: String) throws -> [(ActivityEvent.Level, String)] {
        Fixture.adapt(try Fixture.bytes(file), with: adapter, exitStatus: 0).events.compactMap { event in
            if case .log(let log) = event { return (log.level, log.message) }
            return nil
        }
    }

    @Test("a BuildKit step's output, decoded from base64, is its log lines")
    func buildKitOutput() throws {
        let lines = try Self.logs("buildkit/buildx-build.jsonl", "buildkit").map(\.1)
        #expect(lines.first == "fetch https://dl-cdn.alpinelinux.org/alpine/v3.19/main/x86_64/APKINDEX.tar.gz")
        #expect(lines.last == "OK: 13 MiB in 22 packages")
        #expect(lines.count == 6)
    }

    @Test("Terraform's diagnostics are log lines at their severity, with their detail")
    func terraformDiagnostics() throws {
        let errors = try Self.logs("terraform/terraform-apply-errored.jsonl", "terraform").filter { $0.0 == .error }
        #expect(
            errors.map(\.1) == [
                "Error: local-exec provisioner error: Error running command 'exit 3': exit status 3. Output: "
            ])
        let warnings = try Self.logs("terraform/tofu-plan.jsonl", "terraform").filter { $0.0 == .warning }
        #expect(warnings.map(\.1) == [#"Warning: Deprecated attribute: The attribute "length" is deprecated."#])
    }

    @Test("Nix's messages are log lines at their level, without their colours")
    func nixMessages() throws {
        let logs = try Self.logs("nix/nix-build-failed.txt", "nix")
        #expect(logs.first?.1 == "this derivation will be built:   \(FixtureTests.nixDerivation)")
        #expect(logs.last?.0 == .error)
        #expect(logs.last?.1 == "error: Cannot build '\(FixtureTests.nixDerivation)'.")
    }

    @Test("a Terraform error diagnostic with no failed resource before it is the command's failure")
    func terraformConfigurationError() {
        let line =
            #"{"@level":"error","@message":"Error: Unsupported argument","@module":"terraform.ui","#
            + #""diagnostic":{"severity":"error","summary":"Unsupported argument","detail":"No \"colour\" here."},"#
            + #""type":"diagnostic"}"# + "\n"
        let adapted = Fixture.adapt(
            Array(line.utf8), with: "terraform", command: ["terraform", "plan", "-json"], exitStatus: 1)
        #expect(adapted.failureMessage == "Error: Unsupported argument")
        #expect(adapted.activities.map(\.description) == ["Planning failure 0.0/? Error: Unsupported argument"])
        #expect(adapted.passthrough.isEmpty)
    }
}

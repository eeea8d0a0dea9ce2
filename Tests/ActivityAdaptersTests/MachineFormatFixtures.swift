/// The machine formats' fixtures, written in each format's documented shape (see each folder's
/// README): no such tool is installed to capture.
extension FixtureTests {
    static let machineFormatCases: [FixtureCase] =
        terraformCases + nixCases + buildKitCases + dockerCases + bazelCases + pnpmCases

    static let terraformCases: [FixtureCase] = [
        FixtureCase(
            file: "terraform/terraform-apply.jsonl", adapter: "terraform",
            command: ["terraform", "apply", "-auto-approve", "-json"],
            activities: [
                "Applying success 2.0/2.0 ", "random_pet.animal success 0.0/? ", "null_resource.wait success 0.0/? ",
            ],
            consumes: ["@level", "Creating..."], exitStatus: 0),
        FixtureCase(
            file: "terraform/terraform-apply-errored.jsonl", adapter: "terraform",
            command: ["terraform", "apply", "-auto-approve", "-json"],
            activities: [
                "Applying failure 0.0/1.0 null_resource.fail: Creation errored after 0s",
                "random_pet.animal success 0.0/? ",
                "null_resource.fail failure 0.0/? null_resource.fail: Creation errored after 0s",
            ],
            failure: "null_resource.fail: Creation errored after 0s", consumes: ["@level"], exitStatus: 1),
        FixtureCase(
            file: "terraform/tofu-plan.jsonl", adapter: "terraform", command: ["tofu", "plan", "-json"],
            activities: ["Planning success 0.0/? ", "random_pet.animal success 0.0/? "], consumes: ["@level"]),
    ]

    static let nixSource = "/nix/store/pa10z4ngm0g83kx9mssrqzz30s84vq7k-hello-2.12.1.tar.gz"
    static let nixDerivation = "/nix/store/b1ayn0ln6n8bm2spz441csqc2ss66az3-hello-2.12.1.drv"
    static let nixDownload =
        "downloading 'https://cache.nixos.org/nar/0nz5lxcyqrrqyd1zzjk6k6hxc8k5kbx2k31fx4dbb1vj0mxz3pcq.nar.xz'"

    static let nixCases: [FixtureCase] = [
        FixtureCase(
            file: "nix/nix-build.txt", adapter: "nix",
            command: ["nix", "build", "--log-format", "internal-json", "nixpkgs#hello"],
            activities: [
                "querying info about missing paths success 0.0/? ", "Realising success 0.0/? ",
                "Building success 1.0/1.0 ", "Copying paths success 1.0/1.0 ", "Substituting success 0.0/? ",
                "copying path '\(nixSource)' from 'https://cache.nixos.org' success 724208.0/724208.0 ",
                "\(nixDownload) success 724208.0/724208.0 ", "building '\(nixDerivation)' success 0.0/? ",
            ],
            consumes: ["@nix"], exitStatus: 0),
        FixtureCase(
            file: "nix/nix-build-failed.txt", adapter: "nix",
            command: ["nix", "build", "--log-format", "internal-json", "nixpkgs#hello"],
            activities: [
                "querying info about missing paths success 0.0/? ", "Realising success 0.0/? ",
                "Building failure 0.0/1.0 1 failed", "Copying paths success 1.0/1.0 ", "Substituting success 0.0/? ",
                "copying path '\(nixSource)' from 'https://cache.nixos.org' success 724208.0/724208.0 ",
                "\(nixDownload) success 724208.0/724208.0 ",
                "building '\(nixDerivation)' failure 0.0/? error: builder for '\(nixDerivation)' failed with exit code 2;",
            ],
            failure: "error: builder for '\(nixDerivation)' failed with exit code 2;", consumes: ["@nix"],
            exitStatus: 1),
    ]

    static let alpine =
        "docker.io/library/alpine:3.19@sha256:c5b1261d6d3e43071626931fc004f70149baeba2c8ec672bd4f27761f8e1ad6b"
    static let alpineLayer = "sha256:4abcf20661432fb2d719aaf90656f55c287f8ca915dc1c92ec14ff61e67fbaf8"
    static let buildKitSteps = [
        "[internal] load build definition from Dockerfile success 0.0/? ", "transferring dockerfile: success 118.0/? ",
        "[internal] load metadata for docker.io/library/alpine:3.19 success 0.0/? ",
        "[internal] load .dockerignore success 0.0/? ", "transferring context: success 2.0/? ",
        "[1/3] FROM \(alpine) success 0.0/? ",
    ]
    static let buildKitLayer = [
        "resolve \(alpine) success 0.0/? ", "\(alpineLayer) success 3408729.0/3408729.0 ",
        "extracting \(alpineLayer) success 0.0/? ",
    ]
    static let buildKitRest = [
        "[internal] load build context success 0.0/? ", "transferring context: success 2048.0/? ",
        "[2/3] RUN apk add --no-cache curl success 0.0/? ", "[3/3] COPY . /app success 0.0/? ",
        "exporting to image success 0.0/? ", "exporting layers success 0.0/? ",
        "writing image sha256:7e1b0b4ae1b2e5e0f2a6cfd3d1b8b1b4c3a9f0e6d2c1b0a9f8e7d6c5b4a3f2e1 success 0.0/? ",
        "naming to docker.io/library/demo:latest success 0.0/? ",
    ]
    static let buildKitError =
        #"process "/bin/sh -c apk add --no-cache curl" did not complete successfully: exit code: 1"#

    static let buildKitCases: [FixtureCase] = [
        FixtureCase(
            file: "buildkit/buildx-build.jsonl", adapter: "buildkit",
            command: ["docker", "buildx", "build", "--progress=rawjson", "-t", "demo", "."],
            activities: ["Building success 8.0/8.0 "] + buildKitSteps + buildKitLayer + buildKitRest,
            consumes: ["vertexes", "statuses"], exitStatus: 0),
        FixtureCase(
            file: "buildkit/buildx-cached.jsonl", adapter: "buildkit",
            activities: ["Building success 8.0/8.0 "] + buildKitSteps + buildKitRest, consumes: ["vertexes"]),
        FixtureCase(
            file: "buildkit/buildx-failed.jsonl", adapter: "buildkit",
            activities: ["Building failure 5.0/6.0 \(buildKitError)"] + buildKitSteps + buildKitLayer
                + buildKitRest.prefix(2) + ["[2/3] RUN apk add --no-cache curl failure 0.0/? \(buildKitError)"],
            failure: buildKitError, consumes: ["vertexes"], exitStatus: 1),
    ]

    static let dockerPullError =
        "pull access denied for pyhton, repository does not exist or may require 'docker login': "
        + "denied: requested access to the resource is denied"

    static let dockerCases: [FixtureCase] = [
        FixtureCase(
            file: "docker/docker-pull.jsonl", adapter: "docker-stream",
            activities: [
                "Pulling library/python:3.12-slim success 3.0/3.0 ", "4abcf2066143 success 0.0/? ",
                "9f2d8c1e7a55 success 3511234.0/3511234.0 ", "0b7e4c6d2a1f success 12655.0/12655.0 ",
            ],
            consumes: ["status", "progressDetail"]),
        FixtureCase(
            file: "docker/docker-pull-error.jsonl", adapter: "docker-stream",
            activities: ["Pulling library/pyhton:3.12-slim failure 0.0/? \(dockerPullError)"],
            failure: dockerPullError, consumes: ["errorDetail"], exitStatus: 0),
        FixtureCase(
            file: "docker/docker-push.jsonl", adapter: "docker-stream",
            activities: [
                "Pushing registry.example.com/team/app success 2.0/2.0 ", "9f2d8c1e7a55 success 3511234.0/3511234.0 ",
                "4abcf2066143 success 0.0/? ",
            ],
            consumes: ["aux"]),
        FixtureCase(
            file: "docker/docker-build.jsonl", adapter: "docker-stream", activities: ["Building success 3.0/3.0 "],
            consumes: ["stream"]),
    ]

    static let bazelCompileError =
        "ERROR: /src/demo/app/BUILD:1:10: Compiling app/server.cc failed: (Exit 1): gcc failed: "
        + "error executing CppCompile command"

    static let bazelCases: [FixtureCase] = [
        FixtureCase(
            file: "bazel/bazel-build.jsonl", adapter: "bazel", activities: ["bazel build success 2.0/2.0 "],
            consumes: ["buildFinished", "Build completed"]),
        FixtureCase(
            file: "bazel/bazel-build-failed.jsonl", adapter: "bazel",
            activities: ["bazel build failure 1.0/2.0 \(bazelCompileError)"], failure: bazelCompileError,
            consumes: ["buildFinished"], exitStatus: 1),
        FixtureCase(
            file: "bazel/bazel-test-failed.jsonl", adapter: "bazel",
            activities: ["bazel test failure 2.0/2.0 //lib:util_test: FAILED"], failure: "//lib:util_test: FAILED",
            consumes: ["testSummary"], exitStatus: 3),
    ]

    static let pnpmCases: [FixtureCase] = [
        FixtureCase(
            file: "pnpm/pnpm-install.ndjson", adapter: "pnpm", command: ["pnpm", "install", "--reporter=ndjson"],
            activities: [
                "Installing success 3.0/3.0 ",
                "Downloading registry.npmjs.org/@esbuild/linux-x64/0.24.0 success 9849243.0/9849243.0 ",
                "/esbuild@0.24.0 postinstall success 0.0/? ",
            ],
            consumes: ["pnpm:"]),
        FixtureCase(
            file: "pnpm/pnpm-install-failed.ndjson", adapter: "pnpm",
            activities: [
                "Installing failure 3.0/3.0 node_modules/esbuild postinstall: `node install.js` Exit status 1",
                "Downloading registry.npmjs.org/@esbuild/linux-x64/0.24.0 success 9849243.0/9849243.0 ",
                "/esbuild@0.24.0 postinstall failure 0.0/? /esbuild@0.24.0 postinstall exited with status 1",
            ],
            failure: "/esbuild@0.24.0 postinstall exited with status 1", consumes: ["pnpm:"], exitStatus: 1),
    ]
}

/// The machine formats' fixtures, written in each format's documented shape (see each folder's
/// README): no such tool is installed to capture.
extension FixtureTests {
    static let machineFormatCases: [FixtureCase] = terraformCases + nixCases

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
}

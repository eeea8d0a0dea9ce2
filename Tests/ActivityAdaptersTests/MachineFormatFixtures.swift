/// The machine formats' fixtures, written in each format's documented shape (see each folder's
/// README): no such tool is installed to capture.
extension FixtureTests {
    static let machineFormatCases: [FixtureCase] = terraformCases

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
}

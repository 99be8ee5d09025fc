/// Where credentials come from, tried in the order the AWS SDKs for Python (botocore), Java and
/// PHP document for their default chain, the first that has them winning:
/// 1. the environment: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`;
/// 2. a web identity (a Kubernetes service account's projected token, EKS IRSA):
///    `AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN` (`AWS_ROLE_SESSION_NAME`), or the
///    profile's `web_identity_token_file` and `role_arn`, exchanged at STS
///    (AssumeRoleWithWebIdentity, `AWS_ENDPOINT_URL_STS` for another endpoint);
/// 3. the profile in the shared credentials and config files (`SharedConfig`);
/// 4. the container endpoint (ECS tasks, AWS Batch jobs, EKS Pod Identity):
///    `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` under http://169.254.170.2, or
///    `AWS_CONTAINER_CREDENTIALS_FULL_URI` (loopback, the ECS/EKS link-local hosts, or https),
///    with `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` or `AWS_CONTAINER_AUTHORIZATION_TOKEN`;
/// 5. EC2's instance metadata, IMDSv2 (a PUT for a session token, then the role's
///    credentials), unless `AWS_EC2_METADATA_DISABLED=true`; `AWS_EC2_METADATA_SERVICE_ENDPOINT`
///    moves it. One try of one second each, as the SDKs do, so a machine off EC2 is not slowed.
/// (The Rust and C++ SDKs read the profile before the web identity; the two only differ when
/// both are configured.) Profiles that need what forcezoom does not do (SSO, credential_process,
/// role chaining through source_profile) are refused by name, never skipped silently.
public struct CredentialChain: Sendable {
    public let environment: [String: String]
    public let config: SharedConfig
    public let region: String
    /// Carries STS, container-endpoint and IMDS requests (unsigned).
    public let transport: any S3Transport

    public init(environment: [String: String], settings: S3Settings, transport: any S3Transport) {
        self.environment = environment
        config = settings.config
        region = settings.region
        self.transport = transport
    }

    func env(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }

    /// The first credentials found, or a failure that says where it looked.
    public func resolve(now: Int64) throws(S3Failure) -> S3Credentials {
        if let keys = try fromEnvironment() { return keys }
        if let keys = try fromWebIdentity(now: now) { return keys }
        if let keys = try fromProfile() { return keys }
        if let keys = try fromContainer() { return keys }
        if env("AWS_EC2_METADATA_DISABLED")?.lowercased() != "true", let keys = try fromInstanceMetadata() {
            return keys
        }
        throw S3Failure(
            .credentials, url: "s3://",
            "no AWS credentials found: looked in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_WEB_IDENTITY_TOKEN_FILE, profile \(config.profile) of the shared credentials and config files, the container endpoint (AWS_CONTAINER_CREDENTIALS_*) and EC2 instance metadata; set one of them"
        )
    }

    func fromEnvironment() throws(S3Failure) -> S3Credentials? {
        let id = env("AWS_ACCESS_KEY_ID")
        let secret = env("AWS_SECRET_ACCESS_KEY")
        guard id != nil || secret != nil else { return nil }
        guard let id, let secret else {
            throw S3Failure(
                .credentials, url: "s3://",
                "\(id == nil ? "AWS_SECRET_ACCESS_KEY is set without AWS_ACCESS_KEY_ID" : "AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY"): set both or neither"
            )
        }
        return S3Credentials(
            accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"), source: "the environment")
    }

    func fromProfile() throws(S3Failure) -> S3Credentials? {
        let profileName = "profile \(config.profile)"
        if config.missing {
            throw S3Failure(
                .credentials, url: "s3://",
                "AWS_PROFILE names \(config.profile), which neither shared file has: check the name")
        }
        if let id = config["aws_access_key_id"] {
            guard let secret = config["aws_secret_access_key"] else {
                throw S3Failure(
                    .credentials, url: "s3://", "\(profileName) has aws_access_key_id without aws_secret_access_key")
            }
            return S3Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: config["aws_session_token"],
                source: config.origin["aws_access_key_id"] ?? profileName)
        }
        for unsupported in [
            "sso_start_url", "sso_session", "credential_process", "source_profile", "credential_source",
        ]
        where config[unsupported] != nil {
            throw S3Failure(
                .credentials, url: "s3://",
                "\(profileName) uses \(unsupported), which forcezoom does not support: export keys for it first (eval \"$(aws configure export-credentials --profile \(config.profile) --format env)\")"
            )
        }
        return nil
    }
}

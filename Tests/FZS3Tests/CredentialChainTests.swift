import FZHTTP
import Synchronization
import TestSupport
import Testing

@testable import FZS3

/// The credential chain's order and the shared files, on files the tests write; no server
/// (the remote sources are tested against moto in S3ServerTests). Adds well under a second.
@Suite struct CredentialChainTests {
    /// A chain over `environment` whose network answers nothing (a refused port), so a test
    /// that reaches IMDS learns it quickly.
    static func chain(_ environment: [String: String]) throws -> CredentialChain {
        var env = environment
        env["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = env["AWS_EC2_METADATA_SERVICE_ENDPOINT"] ?? "http://127.0.0.1:9"
        return CredentialChain(
            environment: env, settings: try S3Settings(environment: env), transport: S3HTTPTransport())
    }

    static func files(credentials: String, config: String) -> (String, [String: String]) {
        let dir = CLI.scratch()
        CLI.write(dir + "/credentials", Array(credentials.utf8))
        CLI.write(dir + "/config", Array(config.utf8))
        return (
            dir, ["AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials", "AWS_CONFIG_FILE": dir + "/config", "HOME": dir]
        )
    }

    static let credentialsFile = """
        # a comment
        [default]
        aws_access_key_id = AKIDDEFAULT0000000000
        aws_secret_access_key = secret-default

        [prod]
        aws_access_key_id=AKIDPROD000000000000 ; inline comment
        aws_secret_access_key=secret-prod
        aws_session_token = token-prod
        """

    static let configFile = """
        [default]
        region = eu-central-1
        [profile prod]
        region = ap-south-1
        s3 =
          addressing_style = path
          endpoint_url = http://minio.internal:9000
        [profile sso]
        sso_session = corp
        sso_account_id = 123
        """

    @Test("The environment wins over the profile; a session token goes with it")
    func environmentFirst() throws {
        let (_, files) = Self.files(credentials: Self.credentialsFile, config: Self.configFile)
        let env = files.merging([
            "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secret-env", "AWS_SESSION_TOKEN": "tok",
        ]) { $1 }
        let keys = try Self.chain(env).resolve(now: 0)
        #expect(keys.accessKeyID == "AKIDENV")
        #expect(keys.sessionToken == "tok")
        #expect(keys.source == "the environment")
    }

    @Test("Without the environment, the default profile; AWS_PROFILE picks another, from [prod] and [profile prod]")
    func profiles() throws {
        let (dir, files) = Self.files(credentials: Self.credentialsFile, config: Self.configFile)
        let standard = try Self.chain(files).resolve(now: 0)
        #expect(standard.accessKeyID == "AKIDDEFAULT0000000000")
        #expect(standard.source == "profile default in \(dir)/credentials")
        var env = files
        env["AWS_PROFILE"] = "prod"
        let prod = try Self.chain(env).resolve(now: 0)
        #expect(prod.accessKeyID == "AKIDPROD000000000000")
        #expect(prod.secretAccessKey == "secret-prod")
        #expect(prod.sessionToken == "token-prod")
        let settings = try S3Settings(environment: env)
        #expect(settings.region == "ap-south-1")
        #expect(settings.endpoint.description == "http://minio.internal:9000")
        #expect(settings.endpoint.pathStyle)
    }

    @Test("A missing profile, half the keys or an SSO profile is an error that says what to do")
    func refusals() throws {
        let (_, files) = Self.files(credentials: Self.credentialsFile, config: Self.configFile)
        var env = files
        env["AWS_PROFILE"] = "nope"
        #expect(throws: S3Failure.self) { try Self.chain(env).resolve(now: 0) }
        env["AWS_PROFILE"] = "sso"
        let sso = #expect(throws: S3Failure.self) { try Self.chain(env).resolve(now: 0) }
        #expect(sso?.message.contains("sso_session") == true)
        #expect(sso?.message.contains("aws configure export-credentials") == true)
        let half = #expect(throws: S3Failure.self) { try Self.chain(["AWS_ACCESS_KEY_ID": "AKID"]).resolve(now: 0) }
        #expect(half?.message.contains("AWS_SECRET_ACCESS_KEY") == true)
        #expect(half?.exitCode == 1)
    }

    @Test("Nothing anywhere: the message lists where it looked, in order")
    func nothing() throws {
        let dir = CLI.scratch()
        let env = ["HOME": dir, "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:9"]
        let failure = #expect(throws: S3Failure.self) { try Self.chain(env).resolve(now: 0) }
        let message = failure?.message ?? ""
        let order = [
            "AWS_ACCESS_KEY_ID", "AWS_WEB_IDENTITY_TOKEN_FILE", "profile default", "container", "EC2 instance metadata",
        ]
        let positions = order.compactMap { message.firstRange(of: $0)?.lowerBound }
        #expect(positions.count == order.count)
        #expect(positions == positions.sorted())
    }

    @Test("A container full URI must be https, loopback or the ECS/EKS agents'")
    func containerURLs() {
        #expect(CredentialChain.allowedContainerURL("http://169.254.170.2/v2/credentials/x"))
        #expect(CredentialChain.allowedContainerURL("http://169.254.170.23/v1/credentials"))
        #expect(CredentialChain.allowedContainerURL("http://127.0.0.1:8080/creds"))
        #expect(CredentialChain.allowedContainerURL("https://creds.example/"))
        #expect(!CredentialChain.allowedContainerURL("http://evil.example/creds"))
        #expect(!CredentialChain.allowedContainerURL("file:///etc/passwd"))
    }

    @Test("Credentials print masked: no secret, no token, four characters of the key ID")
    func redaction() {
        let keys = S3Credentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            sessionToken: "FwoGZXIvYXdzEJr//////////wEaDEXAMPLETOKEN", source: "the environment")
        for text in ["\(keys)", String(reflecting: keys), "\([keys])"] {
            #expect(!text.contains("wJalrXUtnFEMI"))
            #expect(!text.contains("FwoGZXIvYXdz"))
            #expect(!text.contains("AKIAIOSFODNN7"))
            #expect(text.contains("MPLE"))
        }
    }

    @Test("Region and endpoint precedence: AWS_REGION, AWS_DEFAULT_REGION, profile; _S3 endpoint over the general one")
    func settings() throws {
        let (_, files) = Self.files(credentials: "", config: Self.configFile)
        #expect(try S3Settings(environment: files).region == "eu-central-1")
        #expect(
            try S3Settings(environment: files.merging(["AWS_DEFAULT_REGION": "us-west-2"]) { $1 }).region == "us-west-2"
        )
        let both = files.merging(["AWS_DEFAULT_REGION": "us-west-2", "AWS_REGION": "sa-east-1"]) { $1 }
        let s = try S3Settings(environment: both)
        #expect(s.region == "sa-east-1")
        #expect(s.endpoint.description == "https://s3.sa-east-1.amazonaws.com")
        #expect(!s.endpoint.pathStyle)
        let endpoints = files.merging([
            "AWS_ENDPOINT_URL": "https://general.example", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000/",
        ]) { $1 }
        let local = try S3Settings(environment: endpoints).endpoint
        #expect(local.description == "http://127.0.0.1:9000")
        #expect(local.pathStyle)
        let ignored = endpoints.merging(["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"]) { $1 }
        #expect(try S3Settings(environment: ignored).endpoint.host == "s3.eu-central-1.amazonaws.com")
        #expect(throws: S3Failure.self) { try S3Settings(environment: ["AWS_ENDPOINT_URL_S3": "ftp://x"]) }
    }

    @Test("The cache resolves once, again within five minutes of expiry, and after invalidate (ExpiredToken)")
    func cache() throws {
        let calls = Atomic<Int>(0)
        let cache = S3CredentialCache { now throws(S3Failure) in
            calls.add(1, ordering: .relaxed)
            return S3Credentials(
                accessKeyID: "ASIA", secretAccessKey: "s", sessionToken: "t", expiration: now + 3_600, source: "test")
        }
        _ = try cache.current(now: 1_000)
        _ = try cache.current(now: 1_000 + 3_000)
        #expect(calls.load(ordering: .relaxed) == 1)
        _ = try cache.current(now: 1_000 + 3_301)
        #expect(calls.load(ordering: .relaxed) == 2)
        cache.invalidate()
        _ = try cache.current(now: 5_000)
        #expect(calls.load(ordering: .relaxed) == 3)
    }
}

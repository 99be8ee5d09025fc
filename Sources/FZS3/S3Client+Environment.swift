extension S3Client {
    /// The client a command uses: region, endpoint and addressing from `S3Settings`, credentials
    /// from the `CredentialChain` (resolved on the first request, refreshed before they expire).
    public static func standard(
        transport: any S3Transport, environment: [String: String] = S3Settings.processEnvironment(),
        pathStyle: Bool = false, retry: S3RetryPolicy = S3RetryPolicy()
    ) throws(S3Failure) -> S3Client {
        let settings = try S3Settings(environment: environment, pathStyle: pathStyle)
        let chain = CredentialChain(environment: environment, settings: settings, transport: transport)
        return S3Client(
            transport: transport, endpoint: settings.endpoint, region: settings.region,
            credentials: S3CredentialCache { now throws(S3Failure) in try chain.resolve(now: now) }, retry: retry)
    }
}

import FZThumbnails
import TestSupport
import Testing

/// `thumb --from` with manifests (issue 52): a `.jsonl` journal's inputs and a `.csv` with a key
/// column are read as lists of paths; a plain list is unchanged. Adds well under a second.
@Suite struct ManifestListTests {
    @Test("--from reads .jsonl members and .csv columns; other names stay one path a line")
    func manifests() throws {
        let dir = CLI.scratch()
        CLI.write(
            dir + "/journal.jsonl",
            Array(
                "{\"input\":\"photos/a b.jpg\",\"output\":\"t/a b.jpg\",\"status\":\"ok\"}\n{\"input\":\"photos/é.png\"}\n"
                    .utf8))
        CLI.write(dir + "/list.csv", Array("size,key\n3,photos/x.jpg\n4,\"photos/y,z.jpg\"\n".utf8))
        CLI.write(dir + "/list.txt", Array("{\"input\":\"not json here\"}\nphotos/p.jpg\n".utf8))
        #expect(
            try InputWalker.readList(dir + "/journal.jsonl", nulSeparated: false) == ["photos/a b.jpg", "photos/é.png"])
        #expect(try InputWalker.readList(dir + "/list.csv", nulSeparated: false) == ["photos/x.jpg", "photos/y,z.jpg"])
        #expect(
            try InputWalker.readList(dir + "/list.txt", nulSeparated: false) == [
                "{\"input\":\"not json here\"}", "photos/p.jpg",
            ])
        CLI.write(dir + "/bad.jsonl", Array("{\"size\":1}\n".utf8))
        let failure = #expect(throws: ThumbnailError.self) {
            try InputWalker.readList(dir + "/bad.jsonl", nulSeparated: false)
        }
        #expect("\(failure.map { "\($0)" } ?? "")".contains("line 1"))
    }
}

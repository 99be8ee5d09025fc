import Testing

@testable import FZRender

/// The characters the font promises, except space (which is blank on purpose).
private let inkedCharacters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-+.,:/()%#=_")

/// A glyph as 7 strings of 5 characters, `#` for set pixels, for readable comparisons.
private func picture(_ character: Character, font: BitmapFont = .standard) -> [String] {
    (0..<font.glyphHeight).map { y in
        String((0..<font.glyphWidth).map { x in font.isSet(character, x: x, y: y) ? "#" : "." })
    }
}

/// The hollow box drawn for unknown characters; a supported character must never look like it.
private let unknownBox = picture("\u{2603}")

@Suite struct BitmapFontTests {
    @Test func metrics() {
        let font = BitmapFont.standard
        #expect(font.glyphWidth == 5)
        #expect(font.glyphHeight == 7)
        #expect(font.advance == 6)
    }

    @Test(arguments: inkedCharacters)
    func supportedGlyphHasInkAndIsNotTheUnknownBox(_ character: Character) {
        let glyph = picture(character)
        #expect(glyph.joined().contains("#"), "\(character) is blank")
        #expect(glyph != unknownBox, "\(character) falls back to the unknown box")
    }

    @Test(arguments: inkedCharacters + [" ", "~", "é"])
    func renderStaysInsideTheGlyphBox(_ character: Character) {
        let font = BitmapFont.standard
        var count = 0
        font.render(String(character), originX: 0, originY: 0, scale: 1) { x, y in
            count += 1
            #expect(
                (0..<font.glyphWidth).contains(x) && (0..<font.glyphHeight).contains(y),
                "\(character) plots (\(x), \(y))")
            #expect(font.isSet(character, x: x, y: y))
        }
        #expect(count == picture(character).joined().filter { $0 == "#" }.count)
    }

    @Test func spaceIsBlank() {
        #expect(!picture(" ").joined().contains("#"))
    }

    @Test func unknownCharactersDrawAHollowBox() {
        #expect(unknownBox == ["#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####"])
        #expect(picture("~") == unknownBox)
    }

    @Test func outOfRangeCoordinatesAreNeverSet() {
        let font = BitmapFont.standard
        for (x, y) in [(-1, 0), (0, -1), (5, 0), (0, 7), (100, 100)] {
            #expect(!font.isSet("#", x: x, y: y))
            #expect(!font.isSet("~", x: x, y: y))
        }
    }

    @Test func distinctCharactersHaveDistinctGlyphs() {
        var seen: [[String]: Character] = [:]
        for character in inkedCharacters {
            let glyph = picture(character)
            #expect(seen[glyph] == nil, "\(character) duplicates \(seen[glyph].map(String.init) ?? "")")
            seen[glyph] = character
        }
    }

    @Test(arguments: Array("abcdefghijklmnopqrstuvwxyz"))
    func lowerCaseDrawsAsUpperCase(_ lower: Character) {
        let upper = Character(lower.uppercased())
        #expect(picture(lower) == picture(upper))
        #expect(picture(lower) != unknownBox)
    }

    @Test(arguments: [1, 2, 3])
    func sizeArithmetic(_ scale: Int) {
        let font = BitmapFont.standard
        #expect(font.size(of: "T", scale: scale) == (5 * scale, 7 * scale))
        #expect(font.size(of: "TOP", scale: scale) == ((3 * 6 - 1) * scale, 7 * scale))
        #expect(font.size(of: "x=-12.5%", scale: scale) == ((8 * 6 - 1) * scale, 7 * scale))
        #expect(font.size(of: "", scale: scale).width == 0)
    }

    @Test(arguments: [1, 2, 3])
    func renderPlotsScaledBlocksInsideTheReportedSize(_ scale: Int) {
        let font = BitmapFont.standard
        let text = "TOP (12,-3) 45% #=_ ~"
        let (originX, originY) = (-7, 11)
        let size = font.size(of: text, scale: scale)
        let setPixels = text.reduce(0) { $0 + picture($1).joined().filter { $0 == "#" }.count }
        var points: [Int: Int] = [:]  // packed (x, y) -> times plotted
        var calls = 0
        font.render(text, originX: originX, originY: originY, scale: scale) { x, y in
            calls += 1
            #expect(
                x >= originX && x < originX + size.width && y >= originY && y < originY + size.height,
                "(\(x), \(y)) outside \(size)")
            points[(y - originY) * 10_000 + (x - originX), default: 0] += 1
        }
        #expect(calls == setPixels * scale * scale)
        #expect(points.count == calls, "some point was plotted twice")
        // The ink reaches the last column, so the reported width is tight.
        #expect(points.keys.contains { $0 % 10_000 == size.width - 1 })
    }

    @Test func renderedTextMatchesPicture() {
        let font = BitmapFont.standard
        let expected = [
            "#####..###..####.",
            "..#...#...#.#...#",
            "..#...#...#.#...#",
            "..#...#...#.####.",
            "..#...#...#.#....",
            "..#...#...#.#....",
            "..#....###..#....",
        ]
        let size = font.size(of: "top", scale: 1)
        var grid = Array(repeating: Array(repeating: Character("."), count: size.width), count: size.height)
        font.render("top", originX: 0, originY: 0, scale: 1) { x, y in grid[y][x] = "#" }
        #expect(grid.map { String($0) } == expected)
    }

    @Test func exactShapes() {
        #expect(
            picture("1") == [
                "..#..",
                ".##..",
                "..#..",
                "..#..",
                "..#..",
                "..#..",
                ".###.",
            ])
        #expect(
            picture("T") == [
                "#####",
                "..#..",
                "..#..",
                "..#..",
                "..#..",
                "..#..",
                "..#..",
            ])
        #expect(
            picture("0") == [
                ".###.",
                "#...#",
                "#..##",
                "#.#.#",
                "##..#",
                "#...#",
                ".###.",
            ])
        #expect(
            picture("%") == [
                "##...",
                "##..#",
                "...#.",
                "..#..",
                ".#...",
                "#..##",
                "...##",
            ])
    }

    @Test func scaledPixelIsASolidBlock() {
        let font = BitmapFont.standard
        var plotted = Set<[Int]>()
        font.render(".", originX: 3, originY: 4, scale: 3) { x, y in plotted.insert([x, y]) }
        // '.' has ink at columns 1-2, rows 5-6: a 6x6 block at (3+3, 4+15).
        var expected = Set<[Int]>()
        for y in 19..<25 { for x in 6..<12 { expected.insert([x, y]) } }
        #expect(plotted == expected)
    }
}

/// A fixed 5x7 bitmap font (6x8 cell with spacing) for labels: digits, A-Z, a-z drawn as
/// upper case, and `- + . , : / ( ) % # = _` and space.
///
/// Built in so that coordinate labels, the word TOP and marker labels can be drawn onto
/// images without a font library: the shapes are the classic HD44780 LCD ones, legible at
/// scale 1 and crisp when blown up by whole-number scales.
public struct BitmapFont: Sendable {
    /// The one font there is; a value rather than free functions so callers can pass it
    /// around and tests can inspect it like any other font.
    public static let standard = BitmapFont(glyphs: BitmapFont.hd44780Glyphs)

    /// Columns of ink per glyph; labels are laid out from this, not from the glyph data.
    public let glyphWidth: Int = 5
    /// Rows of ink per glyph; also the full label height, since there are no descenders.
    public let glyphHeight: Int = 7
    /// Horizontal step between glyphs: one blank column keeps neighbours from touching.
    public let advance: Int = 6

    /// Each glyph is 7 rows, top first; the low 5 bits of a row are its pixels with the
    /// most significant of them (bit 4) the leftmost column.
    private let glyphs: [Character: [UInt8]]

    /// Drawn for characters the font lacks, so a missing glyph shows up rather than
    /// silently vanishing from a label.
    private static let hollowBox: [UInt8] = [0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111]

    private init(glyphs: [Character: [UInt8]]) {
        self.glyphs = glyphs
    }

    /// Whether pixel (x, y) of `character`'s glyph is set (x 0..<5, y 0..<7, y down).
    /// Lower case letters share the upper case shapes: at 5x7 a separate lower case costs
    /// legibility for no gain in labels. Unknown characters draw as a hollow box;
    /// coordinates outside the glyph are never set, so callers may probe freely.
    public func isSet(_ character: Character, x: Int, y: Int) -> Bool {
        guard x >= 0, x < glyphWidth, y >= 0, y < glyphHeight else { return false }
        let rows = self.rows(for: character)
        return rows[y] >> UInt8(glyphWidth - 1 - x) & 1 == 1
    }

    /// Size in pixels of `text` drawn at integer `scale` (>= 1): width = count*advance*scale
    /// - scale, because the last glyph's spacing column is not part of the label (so a
    /// label can be centred or right-aligned exactly); height = glyphHeight*scale. Empty
    /// text is 0 wide.
    public func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        precondition(scale >= 1, "BitmapFont scale must be at least 1")
        let count = text.count
        let width = count == 0 ? 0 : count * advance * scale - scale
        return (width, glyphHeight * scale)
    }

    /// Calls `plot(x, y)` for every set pixel of `text` drawn with its top-left at
    /// (originX, originY) at integer `scale` (each glyph pixel becomes a scale x scale
    /// block). Plotting through a closure keeps the font independent of any image type;
    /// nothing is clipped, so points may fall outside the caller's image.
    public func render(_ text: String, originX: Int, originY: Int, scale: Int, plot: (Int, Int) -> Void) {
        precondition(scale >= 1, "BitmapFont scale must be at least 1")
        var cellX = originX
        for character in text {
            let rows = self.rows(for: character)
            for gy in 0..<glyphHeight {
                let row = rows[gy]
                if row == 0 { continue }
                for gx in 0..<glyphWidth where row >> UInt8(glyphWidth - 1 - gx) & 1 == 1 {
                    let px = cellX + gx * scale
                    let py = originY + gy * scale
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            plot(px + dx, py + dy)
                        }
                    }
                }
            }
            cellX += advance * scale
        }
    }

    /// The rows for `character`, folding ASCII lower case onto upper case.
    private func rows(for character: Character) -> [UInt8] {
        var key = character
        if let ascii = character.asciiValue, ascii >= 0x61, ascii <= 0x7A {
            key = Character(Unicode.Scalar(ascii - 0x20))
        }
        return glyphs[key] ?? BitmapFont.hollowBox
    }

    // The classic HD44780 (ROM A00) 5x7 shapes; `_` sits on the bottom row since there is
    // no cursor line here.
    private static let hd44780Glyphs: [Character: [UInt8]] = [
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        "A": [0b01110, 0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001],
        "B": [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
        "C": [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
        "D": [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100],
        "E": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
        "F": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
        "G": [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
        "H": [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "I": [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "J": [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
        "K": [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
        "L": [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
        "M": [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
        "N": [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
        "O": [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "P": [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
        "Q": [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
        "R": [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
        "S": [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
        "T": [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        "U": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "V": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
        "W": [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
        "X": [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
        "Y": [0b10001, 0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100],
        "Z": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
        "-": [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],
        "+": [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000],
        ".": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],
        ",": [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000],
        ":": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],
        "/": [0b00000, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00000],
        "(": [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010],
        ")": [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000],
        "%": [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011],
        "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],
        "=": [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000],
        "_": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111],
        " ": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000],
    ]
}

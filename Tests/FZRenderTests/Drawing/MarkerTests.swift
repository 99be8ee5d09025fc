import Testing

@testable import FZRender

@Suite struct MarkerTests {
    @Test func csvWithHeaderCommentsAndLabels() throws {
        let text = "x,y,label\n# a comment\n\n10, 20\n1.5,2.5, Home, sweet\r\n"
        let m = try Marker.parseList(text, file: "pins.csv")
        #expect(m == [Marker(x: 10, y: 20), Marker(x: 1.5, y: 2.5, label: "Home, sweet")])
    }

    @Test func csvErrorNamesTheLine() {
        #expect(throws: Marker.ParseError.badLine(file: "p.csv", line: 3, text: "30;40")) {
            try Marker.parseList("1,2\n\n30;40\n", file: "p.csv")
        }
    }

    @Test func jsonObjectsAndPairs() throws {
        let text = #"  [{"x": 1, "y": 2, "label": "A"}, [3.5, 4], {"x": 5, "y": 6, "label": 7}]"#
        let m = try Marker.parseList(text, file: "pins.json")
        #expect(m == [Marker(x: 1, y: 2, label: "A"), Marker(x: 3.5, y: 4), Marker(x: 5, y: 6)])
    }

    @Test(
        "JSON errors name the item",
        arguments: [
            (#"[{"x": 1, "y": 2}, {"x": 1}]"#, "item 2 lacks numeric x and y"),
            (#"[[1, 2], [1, "a"]]"#, "item 2 is not [x, y]"),
            (#"[[1, 2], [1]]"#, "item 2 is not [x, y]"),
            (#"[3]"#, "item 1 is neither an object nor [x, y]"),
            (#"[{"x": 1, "y": 2}"#, "not a JSON array"),
            (#"[1, 2] trailing"#, "not a JSON array"),
        ])
    func jsonErrors(text: String, reason: String) {
        #expect(throws: Marker.ParseError.badJSON(file: "m.json", reason: reason)) {
            try Marker.parseList(text, file: "m.json")
        }
    }
}

"""PNG files whose XMP names regions badly (issue 49), for the hostile set: 100,000 regions (the
budget reads 1000), names carrying terminal escapes and control characters, coordinates that
are NaN, negative, past 1 or of no size, unknown units, duplicate names, and an
AppliedToDimensions that disagrees with the image. Every one is an image that reads ("ok"):
the bad regions are left out with a warning each. make-hostile.py calls `regions_files(add,
png, chunk)` after the other families, so their bytes do not move."""

NS = (
    b'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    b'xmlns:r="http://www.metadataworkinggroup.com/schemas/regions/" '
    b'xmlns:a="http://ns.adobe.com/xmp/sType/Area#" xmlns:d="http://ns.adobe.com/xap/1.0/sType/Dimensions#"'
)


def packet(items, applied=b""):
    body = b"".join(b"<rdf:li>" + i + b"</rdf:li>" for i in items)
    return (
        b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ' + NS + b'><rdf:Description rdf:about="">'
        b'<r:Regions rdf:parseType="Resource">' + applied + b"<r:RegionList><rdf:Bag>" + body +
        b"</rdf:Bag></r:RegionList></r:Regions></rdf:Description></rdf:RDF></x:xmpmeta>"
    )


def area(name, x=b".5", y=b".5", w=b".25", h=b".25", unit=b"normalized"):
    return (b'<rdf:Description r:Name="' + name + b'" r:Type="Face"><r:Area a:x="' + x + b'" a:y="' + y +
            b'" a:w="' + w + b'" a:h="' + h + b'" a:unit="' + unit + b'"/></rdf:Description>')


def regions_files(add, png, chunk):
    def with_xmp(xmp):
        return png(24, 16, before_idat=[chunk(b"iTXt", b"XML:com.adobe.xmp\0\0\0\0\0" + xmp)])

    many = [area(b"r%d" % i) for i in range(1000)] + [b""] * 99000
    add("regions-100k.png", with_xmp(packet(many)), "ok", "-",
        "100,000 MWG regions in 2 MB of XMP (the budget reads 1000, one warning)")
    escapes = [
        area(b"esc&#x1B;]0;owned&#x7;title"),
        area(b"\x1b[2J\x1b[31mred", x=b".3"),
        area(b"bidi\xe2\x80\xaeevil", x=b".7"),
        area(b"tab\tand&#10;newline", y=b".3"),
    ]
    add("regions-escapes.png", with_xmp(packet(escapes)), "ok", "-",
        "region names with terminal escapes (OSC, CSI, BEL), a bidi override, tabs and newlines")
    bad = [
        area(b"good"),
        area(b"nan", x=b"NaN"),
        area(b"negative", y=b"-0.2"),
        area(b"over", w=b"1.5"),
        area(b"zero", h=b"0"),
        area(b"inches", unit=b"inch"),
        area(b"GOOD", x=b".4"),
        area(b"infinite", x=b"1e999"),
    ]
    add("regions-bad.png", with_xmp(packet(bad)), "ok", "-",
        "MWG regions with NaN, negative, >1, zero-size, infinite coordinates, an unknown unit, a duplicate name")
    wrong = b'<r:AppliedToDimensions d:w="1000" d:h="10" d:unit="pixel"/>'
    add("regions-applied-wrong.png", with_xmp(packet([area(b"a")], applied=wrong)), "ok", "-",
        "MWG AppliedToDimensions 1000x10 on a 24x16 image (its regions left out)")

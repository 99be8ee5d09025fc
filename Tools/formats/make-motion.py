#!/usr/bin/python3
"""Live Photos and motion photos (issue 50), into the folder given; tests make them in a scratch
folder, nothing is committed. Every movie is made by ffmpeg (testsrc, H.264), every still by
ImageMagick (JPEG) or heif-enc (HEIC); every identifier and XMP packet is written by exiftool:

live/  (Live Photo pairs and near misses; the identifiers are printed as JSON on stdout)
- IMG_0001.HEIC + IMG_0001.MOV: one content identifier (the HEIC's Apple maker note tag 0x0011,
  which exiftool calls MediaGroupUUID, built here and written with -MakerNotes<=; the MOV's
  Keys:ContentIdentifier, written through a user-defined Keys tag, -config keys.cfg);
- IMG_0002.JPG + IMG_0002.MOV: no identifier on either: paired by name;
- IMG_0003.HEIC + clip-0003.MOV: one identifier, different names: paired by identifier;
- IMG_0004.HEIC + IMG_0004.MOV: the same name but two identifiers: not paired;
- lonely.MOV: an identifier and no still: not paired, stays a video.

motion/  (motion photos: a JPEG or HEIC with an MP4 inside, 'clip.mp4' the MP4 itself)
- google.jpg: Google's Motion Photo XMP (Container:Directory, Item:Semantic MotionPhoto,
  Item:Length, Item:Padding 0; exiftool -XMP<=) and the MP4 appended after the JPEG;
- microvideo.jpg: the older GCamera:MicroVideo=1 and MicroVideoOffset (exiftool), MP4 appended;
- samsung.jpg: Samsung's trailer: a MotionPhoto_Data block (type 0x0a30) and its SEFH/SEFT
  directory after the JPEG, as exiftool reads EmbeddedVideoFile;
- samsung.heic: a HEIC with the MP4 in a top-level mpvd box (exiftool's MotionPhotoVideo).

Usage: make-motion.py OUT_DIR"""
import json
import os
import struct
import subprocess
import sys

out = sys.argv[1]
live, motion = os.path.join(out, "live"), os.path.join(out, "motion")
os.makedirs(live, exist_ok=True)
os.makedirs(motion, exist_ok=True)
KEYS_CFG = os.path.join(out, "keys.cfg")
with open(KEYS_CFG, "w") as f:
    f.write("%Image::ExifTool::UserDefined = ('Image::ExifTool::QuickTime::Keys' => {\n"
            "  'content.identifier' => { Name => 'ContentIdentifier', Writable => 'string' },\n});\n1;\n")


def run(*args):
    subprocess.run(list(args), check=True, stdout=subprocess.DEVNULL)


def movie(path, fmt, seconds="1.5", size="64x48"):
    run("ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size={size}:rate=10",
        "-t", seconds, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", fmt, path)


def still(path, colors="red-blue"):
    if path.lower().endswith((".jpg", ".jpeg")):
        run("convert", "-size", "96x64", f"gradient:{colors}", "-quality", "90", path)
    else:
        png = path + ".png"
        run("convert", "-size", "96x64", f"gradient:{colors}", png)
        run("heif-enc", "-q", "60", "-o", path, png)
        os.remove(png)


def apple_note(identifier):
    """An Apple maker note: "Apple iOS\\0", version 1, "MM", one IFD (offsets from the note's
    start) with MakerNoteVersion (0x0001) and the identifier (0x0011, ASCII)."""
    value = identifier.encode() + b"\0"
    head = b"Apple iOS\0\x00\x01MM"
    entries = [(0x0001, 9, 1, struct.pack(">i", 14)), (0x0011, 2, len(value), value)]
    data_at = len(head) + 2 + 12 * len(entries) + 4
    table, blob = b"", b""
    for tag, typ, count, v in entries:
        if len(v) <= 4:
            table += struct.pack(">HHI", tag, typ, count) + v.ljust(4, b"\0")
        else:
            table += struct.pack(">HHII", tag, typ, count, data_at + len(blob))
            blob += v + (b"\0" if len(v) % 2 else b"")
    return head + struct.pack(">H", len(entries)) + table + b"\0\0\0\0" + blob


def tag_still(path, identifier):
    note = path + ".note"
    with open(note, "wb") as f:
        f.write(apple_note(identifier))
    run("exiftool", "-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 14", f"-MakerNotes<={note}", path)
    os.remove(note)


def tag_movie(path, identifier):
    run("exiftool", "-config", KEYS_CFG, "-q", "-overwrite_original", f"-Keys:ContentIdentifier={identifier}", path)


ids = {"IMG_0001": "8F7C3B2A-1D4E-4C5F-9A6B-7C8D9E0F1A2B", "IMG_0003": "1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D",
       "IMG_0004.HEIC": "AAAAAAAA-0000-4000-8000-000000000004", "IMG_0004.MOV": "BBBBBBBB-0000-4000-8000-000000000004",
       "lonely": "CCCCCCCC-0000-4000-8000-00000000000C"}
still(f"{live}/IMG_0001.HEIC")
tag_still(f"{live}/IMG_0001.HEIC", ids["IMG_0001"])
movie(f"{live}/IMG_0001.MOV", "mov")
tag_movie(f"{live}/IMG_0001.MOV", ids["IMG_0001"])
still(f"{live}/IMG_0002.JPG", "green-yellow")
movie(f"{live}/IMG_0002.MOV", "mov")
still(f"{live}/IMG_0003.HEIC", "white-black")
tag_still(f"{live}/IMG_0003.HEIC", ids["IMG_0003"])
movie(f"{live}/clip-0003.MOV", "mov")
tag_movie(f"{live}/clip-0003.MOV", ids["IMG_0003"])
still(f"{live}/IMG_0004.HEIC", "blue-white")
tag_still(f"{live}/IMG_0004.HEIC", ids["IMG_0004.HEIC"])
movie(f"{live}/IMG_0004.MOV", "mov")
tag_movie(f"{live}/IMG_0004.MOV", ids["IMG_0004.MOV"])
movie(f"{live}/lonely.MOV", "mov")
tag_movie(f"{live}/lonely.MOV", ids["lonely"])
os.remove(KEYS_CFG)

clip_path = f"{motion}/clip.mp4"
movie(clip_path, "mp4", seconds="2.4", size="80x48")
clip = open(clip_path, "rb").read()

GOOGLE_XMP = """<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>
<x:xmpmeta xmlns:x='adobe:ns:meta/'>
<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
 <rdf:Description rdf:about=''
  xmlns:GCamera='http://ns.google.com/photos/1.0/camera/'
  xmlns:Container='http://ns.google.com/photos/1.0/container/'
  xmlns:Item='http://ns.google.com/photos/1.0/container/item/'
  GCamera:MotionPhoto='1' GCamera:MotionPhotoVersion='1' GCamera:MotionPhotoPresentationTimestampUs='500000'>
  <Container:Directory>
   <rdf:Seq>
    <rdf:li rdf:parseType='Resource'>
     <Container:Item Item:Mime='image/jpeg' Item:Semantic='Primary' Item:Length='0' Item:Padding='0'/>
    </rdf:li>
    <rdf:li rdf:parseType='Resource'>
     <Container:Item Item:Mime='video/mp4' Item:Semantic='MotionPhoto' Item:Length='%d' Item:Padding='0'/>
    </rdf:li>
   </rdf:Seq>
  </Container:Directory>
 </rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end='w'?>"""


def appended(path, tail):
    with open(path, "ab") as f:
        f.write(tail)


def google(path, length, tail):
    still(path, "orange-purple")
    xmp = path + ".xmp"
    with open(xmp, "w") as f:
        f.write(GOOGLE_XMP % length)
    run("exiftool", "-q", "-overwrite_original", f"-XMP<={xmp}", path)
    os.remove(xmp)
    appended(path, tail)


google(f"{motion}/google.jpg", len(clip), clip)

still(f"{motion}/microvideo.jpg", "cyan-magenta")
run("exiftool", "-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
    f"-XMP-GCamera:MicroVideoOffset={len(clip)}", f"{motion}/microvideo.jpg")
appended(f"{motion}/microvideo.jpg", clip)


def samsung_trailer(video, at):
    """MotionPhoto_Data after a file of `at` bytes: the block, then the SEFH directory whose
    entry points back to it, then the directory's length and "SEFT"."""
    name = b"MotionPhoto_Data"
    block = b"\0\0\x30\x0a" + struct.pack("<I", len(name)) + name + video
    directory = b"SEFH" + struct.pack("<II", 106, 1) + b"\0\0\x30\x0a" + struct.pack("<II", len(block), len(block))
    return block + directory + struct.pack("<I", len(directory)) + b"SEFT"


still(f"{motion}/samsung.jpg", "gray-navy")
appended(f"{motion}/samsung.jpg", samsung_trailer(clip, os.path.getsize(f"{motion}/samsung.jpg")))

still(f"{motion}/samsung.heic", "pink-teal")
appended(f"{motion}/samsung.heic", struct.pack(">I", 8 + len(clip)) + b"mpvd" + clip)

print(json.dumps(ids))

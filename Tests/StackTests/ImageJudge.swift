import Foundation

/// An outside judge for stored images: Pillow (installed by `.ci/run` from PyPI), run as a separate process. It makes
/// real camera-like photos carrying GPS EXIF, XMP and text, and tells what a downloaded image still carries after
/// decoding every pixel of it.
enum ImageJudge {
    /// What Pillow read from an image.
    struct Inspection: Decodable {
        var format: String
        var width: Int
        var height: Int
        /// IFD0 tags of the EXIF (274 is Orientation, 34853 the GPS IFD pointer).
        var exifTags: [Int]
        var gpsTags: [Int]
        var xmp: Bool
        /// PNG text chunk keys.
        var text: [String]
        var comment: Bool
        var orientation: Int?

        /// Whether anything beyond the orientation could tell where or on what the photo was taken.
        var carriesPlaceOrDevice: Bool {
            !gpsTags.isEmpty || exifTags.contains { $0 != 274 } || xmp || !text.isEmpty || comment
        }
    }

    /// A 64×48 photo of `format` ("jpeg", "png" or "webp") with a camera make and model, GPS coordinates (Paris),
    /// orientation 6, an XMP packet, and for JPEG a comment and for PNG a text chunk naming the place.
    static func photoWithLocation(_ format: String) async throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("judge-\(UUID().uuidString).\(format)")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await run(["make", format, file.path])
        return try Data(contentsOf: file)
    }

    /// Decodes `image` completely and reports its metadata; throws when Pillow cannot decode it.
    static func inspect(_ image: Data) async throws -> Inspection {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("judge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try image.write(to: file)
        return try JSONDecoder().decode(Inspection.self, from: try await run(["inspect", file.path]))
    }

    private static func run(_ arguments: [String]) async throws -> Data {
        try await ExternalProcess.run(["python3", "-c", script] + arguments)
    }

    private static let script = #"""
        import json, sys
        from PIL import Image, PngImagePlugin

        XMP = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
               '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.396N"/>'
               '</rdf:RDF></x:xmpmeta>')

        def make(kind, path):
            img = Image.new("RGB", (64, 48))
            img.putdata([(x * 4, y * 5, 128) for y in range(48) for x in range(64)])
            exif = Image.Exif()
            exif[0x010F] = "Judge Camera"
            exif[0x0110] = "Model 7"
            exif[0x0112] = 6
            gps = exif.get_ifd(0x8825)
            gps[1] = "N"; gps[2] = (48.0, 51.0, 23.76); gps[3] = "E"; gps[4] = (2.0, 21.0, 7.92)
            if kind == "jpeg":
                img.save(path, "JPEG", exif=exif, xmp=XMP.encode(), comment=b"home sweet home")
            elif kind == "png":
                info = PngImagePlugin.PngInfo()
                info.add_text("Location", "48.8566,2.3522")
                info.add_itxt("XML:com.adobe.xmp", XMP)
                img.save(path, "PNG", exif=exif, pnginfo=info)
            else:
                img.save(path, "WEBP", exif=exif, xmp=XMP.encode(), lossless=True)

        def inspect(path):
            img = Image.open(path)
            fmt = img.format
            img.load()
            exif = img.getexif()
            text = getattr(img, "text", None) or {}
            return {
                "format": fmt, "width": img.width, "height": img.height,
                "exifTags": sorted(int(t) for t in exif.keys()),
                "gpsTags": sorted(int(t) for t in exif.get_ifd(0x8825).keys()),
                "xmp": bool(img.info.get("xmp")) or "XML:com.adobe.xmp" in img.info,
                "text": sorted(text.keys()),
                "comment": bool(img.info.get("comment")),
                "orientation": exif.get(0x0112),
            }

        if sys.argv[1] == "make":
            make(sys.argv[2], sys.argv[3])
        else:
            print(json.dumps(inspect(sys.argv[2])))
        """#
}

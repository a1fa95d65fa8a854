// Writes a Swift file holding SampleData.plist and the sample photos as base64 string
// literals, so the bowties binary needs no files beside it to seed the sample ties.
// Base64 strings, unlike byte-array literals, cost the compiler next to nothing.
//
// Usage: EmbedResources OUTPUT.swift SampleData.plist IMAGE.png...
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let output = arguments.first else {
  FileHandle.standardError.write(Data("usage: EmbedResources OUTPUT.swift PLIST IMAGE...\n".utf8))
  exit(64)
}
let plistPath = arguments.dropFirst().first!
let imagePaths = arguments.dropFirst(2).sorted()

func base64(_ path: String) -> String {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("EmbedResources: cannot read \(path)\n".utf8))
    exit(66)
  }
  return data.base64EncodedString()
}

var source = """
  // Generated at build time by the EmbedSampleData plugin from SampleData.plist and
  // images/. Do not edit: change those files instead.

  enum EmbeddedSampleData {
    static let plist = "\(base64(plistPath))"

    static let images: [String: String] = [

  """
for path in imagePaths {
  let name = URL(fileURLWithPath: path).lastPathComponent
  source += "    \"\(name)\": \"\(base64(path))\",\n"
}
source += "  ]\n}\n"

do {
  try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
  FileHandle.standardError.write(Data("EmbedResources: cannot write \(output): \(error)\n".utf8))
  exit(73)
}

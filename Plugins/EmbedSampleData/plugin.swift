import Foundation
import PackagePlugin

/// Embeds the package's `SampleData.plist` and `images/*.png` into the target as
/// Swift source, regenerated whenever one of those files changes.
@main
struct EmbedSampleData: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = context.package.directoryURL
    let plist = root.appending(path: "SampleData.plist")
    let imagesFolder = root.appending(path: "images")
    let images = try FileManager.default
      .contentsOfDirectory(at: imagesFolder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "png" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSampleData.swift")
    return [
      .buildCommand(
        displayName: "Embedding SampleData.plist and \(images.count) photos",
        executable: try context.tool(named: "EmbedResources").url,
        arguments: [output.path, plist.path] + images.map(\.path),
        inputFiles: [plist, imagesFolder] + images,
        outputFiles: [output])
    ]
  }
}

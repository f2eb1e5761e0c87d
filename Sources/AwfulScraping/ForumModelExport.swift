// The scrapers produce ForumModel values; every user of the scrapers needs those types, so they come with the
// import instead of a second `import ForumModel` in each of the scrapers' clients.
@_exported import ForumModel

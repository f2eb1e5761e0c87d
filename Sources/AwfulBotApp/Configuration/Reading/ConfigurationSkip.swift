/// Thrown by a section that is not an object after reporting it: its parent goes on without it.
struct ConfigurationSkip: Error {}

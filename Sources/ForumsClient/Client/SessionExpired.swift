/// Internal signal: the forum no longer knows the session (the `bbuserid` cookie vanished or the page says
/// "you must be a registered forums member"). `ForumsClient.withSession` answers it by logging in once more.
struct SessionExpired: Error {}

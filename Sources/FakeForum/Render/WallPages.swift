/// What stands in front of the forum when a wall fault is on (`WallFault`): the pages the real walls serve, close
/// enough that the bot must tell them apart by the same signs (Cloudflare's `cf-mitigated` header, the statuses,
/// the pages' words), and with no forum markup at all.
enum WallPages {
  static func response(_ wall: WallFault) -> ForumResponse {
    var response: ForumResponse
    switch wall.kind {
    case .challenge:
      response = .html(challenge, status: 403)
      response.headers += [
        ("cf-mitigated", "challenge"), ("Server", "cloudflare"), ("Cache-Control", "private, max-age=0, no-store"),
      ]
    case .rateLimit:
      response = .html(rateLimit, status: 429)
      response.headers.append(("Server", "cloudflare"))
    case .maintenance:
      response = .html(maintenance, status: 503)
    }
    if let seconds = wall.retryAfterSeconds, wall.kind != .challenge {
      response.headers.append(("Retry-After", "\(seconds)"))
    }
    return response
  }

  /// Cloudflare's managed challenge page, abridged: the script that runs the browser check is what a bot cannot do.
  static let challenge = """
    <!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>\
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">\
    <meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1">\
    </head><body><div class="main-wrapper" role="main"><div class="main-content">\
    <h1 class="zone-name-title h1">forums.example</h1>\
    <h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>\
    <noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div>\
    </noscript></div></div>\
    <script>(function(){window._cf_chl_opt={cvId: '3',cZone: "forums.example",cType: 'managed'};\
    var a = document.createElement('script');a.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1';\
    document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>
    """

  /// Cloudflare's rate-limit error page (error 1015), abridged.
  static let rateLimit = """
    <!DOCTYPE html><html lang="en-US"><head><title>Access denied | forums.example used Cloudflare to restrict access\
    </title></head><body><div id="cf-wrapper"><div id="cf-error-details"><h1>\
    <span class="cf-error-type">Error</span> <span class="cf-error-code">1015</span></h1>\
    <h2 class="cf-subheadline">You are being rate limited</h2>\
    <p>The owner of this website (forums.example) has banned you temporarily from accessing this website.</p>\
    </div></div></body></html>
    """

  /// A maintenance page.
  static let maintenance = """
    <!DOCTYPE html><html><head><title>Down for maintenance</title></head><body>\
    <h1>The forums are down for maintenance</h1><p>We'll be back soon. Thanks for your patience.</p></body></html>
    """
}

import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/auth/route-access';
import { PAIR_HTML } from './pair-html';
import { PAIR_JS } from './pair-script';
import { PAIR_CSS } from './pair-style';

/** Nothing but this origin's own script and style; no framing, no referrer, no caching. */
const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** A script or style sheet is never a document, so it may load nothing itself. */
const ASSET_CSP = "default-src 'none'";

/** The content type, kept by the browser as given (nosniff), and the policy of every pairing-page response. */
function Served(contentType: string, csp: string) {
  return applyDecorators(
    Header('Content-Type', contentType),
    Header('X-Content-Type-Options', 'nosniff'),
    Header('Content-Security-Policy', csp),
  );
}

/** The pairing page of `brandwire login`, served as static files: the page itself is public, its calls need an Admin key. */
@ApiExcludeController()
@Controller('pair')
@Public()
export class PairPageController {
  @Get()
  @Served('text/html; charset=utf-8', PAGE_CSP)
  @Header('X-Frame-Options', 'DENY')
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return PAIR_HTML;
  }

  @Get('pair.js')
  @Served('text/javascript; charset=utf-8', ASSET_CSP)
  @Header('Cache-Control', 'no-cache')
  script(): string {
    return PAIR_JS;
  }

  @Get('pair.css')
  @Served('text/css; charset=utf-8', ASSET_CSP)
  @Header('Cache-Control', 'no-cache')
  style(): string {
    return PAIR_CSS;
  }
}

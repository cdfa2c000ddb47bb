import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/auth/route-access';
import { PAIR_HTML } from './pair-html';
import { PAIR_JS } from './pair-script';
import { PAIR_CSS } from './pair-style';

/** Nothing but this origin's own script and style; no framing, no referrer, no caching. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The pairing page of `brandwire login`, served as static files: the page itself is public, its calls need an Admin key. */
@ApiExcludeController()
@Controller('pair')
@Public()
export class PairPageController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', CSP)
  @Header('X-Frame-Options', 'DENY')
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return PAIR_HTML;
  }

  @Get('pair.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  script(): string {
    return PAIR_JS;
  }

  @Get('pair.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  style(): string {
    return PAIR_CSS;
  }
}

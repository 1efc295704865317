import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { privatePageHeaders } from '../hosted/html';
import { ApiErrors } from '../http/api-errors';
import { DashboardApp } from './dashboard-app';

/**
 * The page's policy: every script and style a file of this origin (no inline code at all), calls to this origin
 * only, never framed, no plugins, forms post only here.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> (it builds clients/dashboard into
dist/dashboard) and restart the gateway.</p></body></html>`;

/** The merchant dashboard's single page and its files (docs/dashboard.md); its data comes from the API. */
@ApiTags('dashboard')
@Controller('dashboard')
export class DashboardSpaController {
  constructor(private readonly app: DashboardApp) {}

  @Get()
  @ApiOperation({
    summary: 'The merchant dashboard (HTML; people sign in with the users an operator invites)',
    description: 'Every screen is a route after `#` of this page. No credential: the page asks for a sign-in.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The dashboard page' })
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    privatePageHeaders(reply, DASHBOARD_CSP);
    void reply.header('x-frame-options', 'DENY').header('cross-origin-opener-policy', 'same-origin');
    if (this.app.index === undefined) void reply.status(503);
    return this.app.index ?? NOT_BUILT;
  }

  @Get('assets/:file')
  @ApiOperation({ summary: 'A script or stylesheet of the dashboard (content-hashed name, cached for a year)' })
  @ApiOkResponse({ description: 'The file' })
  @ApiErrors({ NOT_FOUND: 'no dashboard file has this name' })
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const found = this.app.asset(file);
    if (!found) throw DomainError.notFound('file', 'file');
    void reply
      .header('content-type', found.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff');
    return found.body;
  }

  /**
   * Any other path under /dashboard/ (the invitation link's `/dashboard/#/…` among them) is the same page: the
   * screens are routes after `#`. Static and parametric routes (the session API, assets) match before this
   * wildcard; an unknown API path still answers 404 rather than the page.
   */
  @Get('*')
  @ApiExcludeEndpoint()
  subpage(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    if (/^\/dashboard\/(api|assets)(\/|$|\?)/.test(request.url)) throw DomainError.notFound('route', 'path');
    return this.page(reply);
  }
}

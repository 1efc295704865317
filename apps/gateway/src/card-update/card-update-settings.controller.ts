import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerContext } from '@app/contracts';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { ApiErrors } from '../http/api-errors';
import { CardUpdateLinks } from './card-update-links.repository';
import { CardUpdateEmailsSetting } from './card-update.dto';

/** The merchant's card-update emails switch (docs/api.md, Card-update links). Off until the merchant turns it on. */
@ApiTags('billing')
@Controller('v1/subscription/settings/card-update-emails')
@PrivateRoute()
export class CardUpdateSettingsController {
  constructor(private readonly links: CardUpdateLinks) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: 'Whether customers are emailed card-update links' })
  @ApiOkResponse({ type: CardUpdateEmailsSetting })
  @ApiErrors()
  async get(@Caller() caller: CallerContext): Promise<CardUpdateEmailsSetting> {
    return { enabled: await this.links.emailsOn(caller.merchantCode) };
  }

  @Put()
  @RequirePermission('manage')
  @ApiOperation({ summary: 'Turn the card-update emails on or off (for every environment of the merchant)' })
  @ApiOkResponse({ type: CardUpdateEmailsSetting })
  @ApiErrors('VALIDATION_FAILED')
  async set(@Body() body: CardUpdateEmailsSetting, @Caller() caller: CallerContext): Promise<CardUpdateEmailsSetting> {
    await this.links.setEmails(caller.merchantCode, body.enabled);
    return { enabled: body.enabled };
  }
}

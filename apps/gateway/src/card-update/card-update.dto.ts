import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { MerchantBody } from '@app/contracts';

export class CreateCardUpdateLinkRequest extends MerchantBody {}

export class CardUpdateLinkView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ description: 'The hosted page to send the customer; it works once, until expiresAt' }) url: string;
  @ApiProperty({ description: '7 days after creation' }) expiresAt: string;
}

export class SubmitCardUpdateRequest {
  @ApiProperty({ description: 'A nonce the SDK card fields made for this page' })
  @IsString()
  @Length(1, 200)
  nonce: string;
}

export class CardUpdateResult {
  @ApiProperty({ enum: ['used'] }) link: 'used';
  @ApiProperty({ description: 'The subscription’s status after the update (active once the open invoice is paid)' })
  subscriptionStatus: string;
}

export class CardUpdateEmailsSetting extends MerchantBody {
  @ApiProperty({
    description:
      'Email the customer a card-update link when a renewal is declined for a reason that needs a new card, and ' +
      'when the stored card expires (payment_method.expiring)',
  })
  @IsBoolean()
  enabled: boolean;
}

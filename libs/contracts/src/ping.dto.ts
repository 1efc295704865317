import { ApiProperty } from '@nestjs/swagger';

export class PingResponse {
  @ApiProperty({ example: 'payments' }) service: string;
  @ApiProperty({ description: 'Id of the replica that answered' }) instanceId: string;
  @ApiProperty({ example: 'demo' }) merchantCode: string;
  @ApiProperty({ enum: ['production', 'sandbox'] }) environment: string;
  @ApiProperty() requestId: string;
  @ApiProperty({ description: 'Time on the service clock' }) now: string;
}

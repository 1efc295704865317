import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, CreateNonceRequest, NonceResponse, PaymentsExtrasSubjects } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { NonceService } from './nonce.service';

@CommandHandler()
export class NonceHandler {
  constructor(private readonly nonces: NonceService) {}

  @MessagePattern(PaymentsExtrasSubjects.createNonce)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreateNonceRequest): Promise<NonceResponse> {
    return this.nonces.create(ctx, body);
  }
}

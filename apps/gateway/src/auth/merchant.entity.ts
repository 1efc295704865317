import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('merchants')
export class Merchant {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text', unique: true }) merchantCode: string;
  @Column('text') name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

! A systolic product y = A x with A split in block rows and x passed
! around the ring in blocks by MPI_Sendrecv_replace (size - 1 shifts a
! step), then a normalisation whose norm is reduced in place
! (MPI_Allreduce with MPI_IN_PLACE): a power iteration as Fortran codes
! write it with `use mpi`. Usage: systolic_power [block [steps]]
program systolic
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, nb, steps, s, k, owner, i, j, left, right
  integer :: status(MPI_STATUS_SIZE)
  double precision, allocatable :: a(:,:), x(:), xb(:), y(:)
  double precision :: norm, t0, t
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nb = 256
  steps = 60
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) nb
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  allocate (a(nb, nb * nprocs), x(nb), xb(nb), y(nb))
  do j = 1, nb * nprocs
    do i = 1, nb
      a(i, j) = 1.0d0 / dble(abs(rank * nb + i - j) + 1)
    end do
  end do
  x = 1.0d0
  left = mod(rank + nprocs - 1, nprocs)
  right = mod(rank + 1, nprocs)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do s = 1, steps
    y = 0.0d0
    xb = x
    owner = rank
    do k = 0, nprocs - 1
      do j = 1, nb
        do i = 1, nb
          y(i) = y(i) + a(i, owner * nb + j) * xb(j)
        end do
      end do
      if (k < nprocs - 1) then
        call MPI_Sendrecv_replace(xb, nb, MPI_DOUBLE_PRECISION, right, 11, left, 11, &
                                  MPI_COMM_WORLD, status, ierr)
        owner = mod(owner + nprocs - 1, nprocs)
      end if
    end do
    norm = sum(y * y)
    call MPI_Allreduce(MPI_IN_PLACE, norm, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    x = y / sqrt(norm)
  end do
  t = MPI_Wtime() - t0
  if (rank == 0) then
    write (*, '(a,es16.9)') 'result norm ', sqrt(norm)
    write (*, '(a,i0,a,f10.6,a,es13.6,a)') 'loop: ', steps, ' iterations, ', t, ' s, ', t / steps, ' s per iteration'
  end if
  deallocate (a, x, xb, y)
  call MPI_Finalize(ierr)
end program systolic
